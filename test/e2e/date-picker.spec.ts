import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { localDay } from '../../common/dates.js';
import { ADMIN_PIN, expect, isolatedTest as test } from './fixtures.js';
import { pageErrors } from './finger.js';
import { smallTargets } from './screens.helpers.js';

/**
 * The date picker by finger on the 800 × 480 screen: months and years walked with its arrows and
 * its list of months, leap days, the first day allowed, and the day tapped being the day used in
 * the booth's own time, whatever UTC says at that moment.
 */
const SMALL = { width: 800, height: 480 };

async function unlockByFinger(page: Page, where: string): Promise<void> {
  await page.goto(where);
  for (const digit of ADMIN_PIN) await page.getByTestId(`pin-key-${digit}`).tap();
  await page.getByTestId('pin-submit').tap();
  await page.getByTestId('nav-lock').waitFor();
}

const picker = (page: Page) => page.getByTestId('date-picker');

test('a booth fourteen hours ahead of UTC: its 29 February is today, and the day tapped is the day filtered', async ({
  browser,
  baseURL,
}) => {
  // 10:30 UTC on 28 February 2028 is half past midnight on 29 February on the Line Islands.
  const context = await browser.newContext({ baseURL, viewport: SMALL, hasTouch: true, locale: 'fr-FR', timezoneId: 'Pacific/Kiritimati' });
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.clock.setFixedTime(new Date('2028-02-28T10:30:00Z'));
  await unlockByFinger(page, '/admin/gallery');

  await page.getByTestId('filter-from').tap();
  await expect(picker(page)).toHaveAttribute('data-month', '2028-02');
  await expect(picker(page).getByTestId('date-title')).toHaveText('Février 2028');
  await expect(picker(page).getByTestId('date-day-2028-02-29')).toHaveClass(/today/);
  await expect(picker(page).getByTestId('date-day-2028-02-28')).not.toHaveClass(/today/);
  expect(await smallTargets(page, '[data-testid="date-picker"]'), 'every day and arrow a finger’s size').toEqual([]);
  await page.screenshot({ path: 'test-screens/date-picker-leap-day-800x480.png' });

  // The arrows by finger: March 2028 starts on a Wednesday; back two months is January.
  await picker(page).getByTestId('date-next').tap();
  await expect(picker(page).getByTestId('date-title')).toHaveText('Mars 2028');
  const firstWeek = picker(page).locator('tbody tr').first().locator('button');
  await expect(firstWeek.nth(2)).toHaveAttribute('data-testid', 'date-day-2028-03-01');
  await expect(firstWeek.nth(0)).toHaveClass(/other/);
  await picker(page).getByTestId('date-prev').tap();
  await picker(page).getByTestId('date-prev').tap();
  await expect(picker(page).getByTestId('date-title')).toHaveText('Janvier 2028');
  // The months of the year, its arrows moving years (and named so), back to February.
  await picker(page).getByTestId('date-title').tap();
  await expect(picker(page).getByTestId('date-prev')).toHaveAccessibleName('Année précédente');
  await picker(page).getByTestId('date-prev').tap();
  await expect(picker(page).getByTestId('date-title')).toHaveText('2027');
  await picker(page).getByTestId('date-month-2').tap();
  await expect(picker(page).getByTestId('date-title')).toHaveText('Février 2027');
  await expect(picker(page).getByTestId('date-prev')).toHaveAccessibleName('Mois précédent');
  // 2027 is no leap year: its February ends on the 28th.
  await expect(picker(page).getByTestId('date-day-2027-03-01')).toHaveClass(/other/);
  await expect(picker(page).getByTestId('date-day-2027-02-29')).toHaveCount(0);
  for (let i = 0; i < 12; i++) await picker(page).getByTestId('date-next').tap();
  await expect(picker(page).getByTestId('date-title')).toHaveText('Février 2028');

  // The leap day tapped is the day asked of the service, and the day the field reads.
  const asked = page.waitForRequest((request) => request.url().includes('/api/admin/photos?'));
  await picker(page).getByTestId('date-day-2028-02-29').tap();
  expect(new URL((await asked).url()).searchParams.get('from')).toBe('2028-02-29');
  await expect(picker(page)).toHaveCount(0);
  await expect(page.getByTestId('filter-from')).toHaveAttribute('data-value', '2028-02-29');
  await expect(page.getByTestId('filter-from')).toContainText('29 févr. 2028');
  expect(errors).toEqual([]);
  await context.close();
});

test('a booth eleven hours behind UTC: on its New Year’s Eve, today is 31 December, whatever UTC says', async ({ browser, baseURL }) => {
  // 10:30 UTC on 1 January 2027 is half past eleven at night on 31 December in Pago Pago.
  const context = await browser.newContext({ baseURL, viewport: SMALL, hasTouch: true, locale: 'fr-FR', timezoneId: 'Pacific/Pago_Pago' });
  const page = await context.newPage();
  await page.clock.setFixedTime(new Date('2027-01-01T10:30:00Z'));
  await unlockByFinger(page, '/admin/gallery');
  await page.getByTestId('filter-to').tap();
  await expect(picker(page).getByTestId('date-title')).toHaveText('Décembre 2026');
  await expect(picker(page).getByTestId('date-day-2026-12-31')).toHaveClass(/today/);
  const asked = page.waitForRequest((request) => request.url().includes('/api/admin/photos?'));
  await picker(page).getByTestId('date-day-2026-12-31').tap();
  expect(new URL((await asked).url()).searchParams.get('to')).toBe('2026-12-31');
  await expect(page.getByTestId('filter-to')).toContainText('31 déc. 2026');
  await context.close();
});

test('the expiry of an online gallery: the first day offered is tomorrow (today would take it down at once), and it is kept', async ({
  browser,
  baseURL,
  service,
}) => {
  service.services.events.create({ name: 'Gala des Lumières' });
  await service.simulator!.capture('gala 1');
  await expect.poll(() => service.services.photoRepository.count(), { timeout: 15_000 }).toBe(1);
  await service.services.publishing.service.update({
    destination: { type: 'local', path: mkdtempSync(path.join(os.tmpdir(), 'boothdeck-published-')) },
    booth_name: 'booth',
    public_base_url: 'https://photos.example.com/galeries',
    enabled: true,
  });
  await expect.poll(() => service.services.publishing.service.overview().events[0]?.state, { timeout: 20_000 }).toBe('online');

  // The browser and the service share the booth's clock and zone, as on the booth.
  const context = await browser.newContext({ baseURL, viewport: SMALL, hasTouch: true, locale: 'fr-FR' });
  const page = await context.newPage();
  const errors = pageErrors(page);
  await unlockByFinger(page, '/admin/events');
  const now = new Date();
  const today = localDay(now);
  const tomorrow = localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 12));
  const row = page.getByTestId('publish-gala-des-lumieres');
  await row.getByTestId('publish-expiry').tap();
  await expect(picker(page)).toHaveAttribute('data-month', tomorrow.slice(0, 7));
  await expect(picker(page).getByTestId(`date-day-${tomorrow}`)).toBeEnabled();
  // Today, in this month's grid or the previous one's, is closed.
  if (today.slice(0, 7) !== tomorrow.slice(0, 7)) await picker(page).getByTestId('date-prev').tap();
  await expect(picker(page).getByTestId(`date-day-${today}`)).toBeDisabled();
  // In the months of the year, those wholly past are closed, the first day's is open.
  await picker(page).getByTestId('date-title').tap();
  const month = Number(tomorrow.slice(5, 7));
  if (today.slice(0, 4) !== tomorrow.slice(0, 4)) {
    // Today is the last day of the year: its December is shown, wholly past.
    await expect(picker(page).getByTestId('date-month-12')).toBeDisabled();
    await picker(page).getByTestId('date-next').tap();
  } else if (month > 1) {
    await expect(picker(page).getByTestId(`date-month-${month - 1}`)).toBeDisabled();
  }
  await picker(page).getByTestId(`date-month-${month}`).tap();
  await page.screenshot({ path: 'test-screens/date-picker-expiry-800x480.png' });
  await picker(page).getByTestId(`date-day-${tomorrow}`).tap();
  await expect(page.getByTestId('notice')).toContainText('Date de retrait enregistrée');
  await expect.poll(() => service.services.publishing.service.overview().events[0]?.expires_on).toBe(tomorrow);
  await expect(row.getByTestId('publish-expiry')).toHaveAttribute('data-value', tomorrow);
  // Still online until then.
  await expect(row.getByTestId('publish-state')).toHaveText('En ligne');
  expect(errors).toEqual([]);
  await context.close();
});
