import { currentWedding } from './helpers.js';
import type { Page } from '@playwright/test';
import type { FakePrinter } from '../../server/print/printer.fake.js';
import { expect, fileTest as test } from './fixtures.js';
import { layoutProblems, smallTargets, textProblems, unreachable, type Viewport } from './screens.helpers.js';

/** The guests' pages on small phones: sheets that scroll and fit, a toolbar on one row, fingers' targets. */
const PHONES: (Viewport & { name: string })[] = [
  { name: '360x640', width: 360, height: 640 },
  { name: '390x844', width: 390, height: 844 },
];

async function checkSheet(page: Page, where: string, phone: Viewport): Promise<void> {
  expect(await layoutProblems(page, phone), `${where}: nothing wider than the phone`).toEqual([]);
  expect(await unreachable(page, '.btn'), `${where}: every button of the sheet under a finger`).toEqual([]);
  expect(await smallTargets(page, '.backdrop'), `${where}: buttons a finger's size`).toEqual([]);
  expect(await textProblems(page), `${where}: words`).toEqual([]);
}

test.describe('the guests’ pages on small phones', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(90_000);

  test.beforeAll(async ({ service }) => {
    currentWedding(service);
    const before = service.services.photoRepository.count();
    for (let i = 0; i < 4; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(before + 4);
    // The printer waits for paper: the print sheet is at its tallest.
    const printer = service.printer as FakePrinter;
    printer.printers[0] = { ...printer.printers[0]!, state: 'stopped', reasons: ['media-empty-error'] };
  });

  test.afterAll(({ service }) => {
    const printer = service.printer as FakePrinter;
    printer.printers[0] = { ...printer.printers[0]!, state: 'idle', reasons: [] };
  });

  for (const phone of PHONES) {
    test(`grid, lightbox, print and QR sheets at ${phone.name}`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, viewport: phone, isMobile: true, hasTouch: true, locale: 'fr-FR' });
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByTestId('photo-tile')).toHaveCount(4);
      expect(await layoutProblems(page, phone)).toEqual([]);
      expect(await smallTargets(page, '.gp-bar')).toEqual([]);
      await page.screenshot({ path: `test-screens/guest-${phone.name}-grid.png` });

      await page.getByTestId('photo-tile').first().tap();
      await expect(page.locator('.viewer-print')).toBeVisible();
      // One row: every button of the toolbar at the same height, each a finger's size.
      const tops = await page
        .locator('.viewer-toolbar li')
        .evaluateAll((els) =>
          els.filter((el) => el.getBoundingClientRect().width > 0).map((el) => Math.round(el.getBoundingClientRect().top)),
        );
      expect(new Set(tops).size, `${phone.name}: the toolbar on one row (${tops.join(', ')})`).toBe(1);
      expect(await smallTargets(page, '.viewer-toolbar')).toEqual([]);
      await page.screenshot({ path: `test-screens/guest-${phone.name}-lightbox.png` });

      await page.locator('.viewer-print').tap();
      const sheet = page.getByTestId('print-dialog');
      await expect(sheet.getByTestId('print-before')).toBeVisible({ timeout: 10_000 });
      await checkSheet(page, `${phone.name} print`, phone);
      await page.screenshot({ path: `test-screens/guest-${phone.name}-print.png` });
      await page.getByTestId('print-close').tap();
      await expect(sheet).toHaveCount(0);

      await page.locator('.viewer-qr').tap();
      await expect(page.getByTestId('photo-qr-dialog')).toBeVisible();
      await checkSheet(page, `${phone.name} QR`, phone);
      await page.screenshot({ path: `test-screens/guest-${phone.name}-qr.png` });
      await page.getByTestId('photo-qr-close').tap();
      await context.close();
    });
  }

  test('a phone set to English reads the gallery in English until the guest chooses', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, viewport: PHONES[1], isMobile: true, hasTouch: true, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByTestId('gallery-count')).toHaveText('4 photos');
    await page.getByTestId('photo-tile').first().tap();
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await page.getByTestId('lightbox-close').tap();
    await page.getByTestId('language-switch').tap();
    await page.reload();
    await page.getByTestId('photo-tile').first().tap();
    await expect(page.getByRole('button', { name: 'Imprimer' })).toBeVisible();
    await context.close();
  });
});
