import { currentWedding } from './helpers.js';
import type { Page } from '@playwright/test';
import type { FakePrinter } from '../../server/print/printer.fake.js';
import { expect, fileTest as test } from './fixtures.js';
import { drag, pageErrors } from './finger.js';
import { layoutProblems, smallTargets, textProblems, unreachable, type Viewport } from './screens.helpers.js';

/** The guests' pages on small phones: sheets that scroll and fit, a toolbar on one row, fingers' targets. */
const PHONES: (Viewport & { name: string })[] = [
  { name: '360x640', width: 360, height: 640 },
  { name: '390x844', width: 390, height: 844 },
];

/** Records the language switch's first words, as the app first draws it (before any later change). */
function firstWords(): void {
  new MutationObserver((_, observer) => {
    const button = document.querySelector('[data-testid="language-switch"]');
    if (!button) return;
    (window as unknown as { firstSwitch: string }).firstSwitch = (button.textContent ?? '').trim();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

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
      const errors = pageErrors(page);
      await page.goto('/');
      await expect(page.getByTestId('photo-tile')).toHaveCount(4);
      expect(await layoutProblems(page, phone)).toEqual([]);
      expect(await smallTargets(page), `${phone.name} grid: every control at least 44 × 44 px`).toEqual([]);
      expect(await textProblems(page), `${phone.name} grid: words`).toEqual([]);
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
      expect(await textProblems(page), `${phone.name} lightbox: words`).toEqual([]);
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
      // A swipe past the first photo, then past the last: the photo stays, nothing breaks.
      await drag(page, 300, 0, { steps: 10 });
      for (let i = 0; i < 4; i++) await drag(page, -80, 0);
      await expect(page.locator('.viewer-canvas img')).toBeVisible();
      expect(errors, `${phone.name}: no uncaught error on the guests' pages`).toEqual([]);
      await context.close();
    });
  }

  test('a phone set to English is sent its page in English, before any script guesses, until the guest chooses', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, viewport: PHONES[1], isMobile: true, hasTouch: true, locale: 'en-US' });
    const page = await context.newPage();
    // The browser's own list says French here: only the server, reading Accept-Language, can make the page English.
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['fr-FR'] }));
    await page.addInitScript(firstWords);
    const first = await page.goto('/');
    expect(await first!.text()).toContain('<html lang="en" data-lang="en">');
    await expect(page.getByTestId('gallery-count')).toHaveText(/^\d+ photos$/);
    // The app's first words were already English: its switch offered French from the start.
    expect(await page.evaluate(() => (window as unknown as { firstSwitch: string }).firstSwitch)).toBe('FR');
    await expect(page).toHaveTitle('Boothdeck — Gallery');
    await page.getByTestId('photo-tile').first().tap();
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    expect(await textProblems(page, 'en'), 'the English lightbox’s words').toEqual([]);
    await page.locator('.viewer-print').tap();
    await expect(page.getByTestId('print-dialog').getByTestId('print-before')).toBeVisible({ timeout: 10_000 });
    expect(await textProblems(page, 'en'), 'the English print sheet’s words').toEqual([]);
    await page.getByTestId('print-close').tap();
    await page.getByTestId('lightbox-close').tap();

    // The guest chooses French: the next page comes from the server in French.
    await page.getByTestId('language-switch').tap();
    const again = await page.reload();
    expect(await again!.text()).toContain('<html lang="fr" data-lang="fr">');
    await expect(page).toHaveTitle('Boothdeck — Galerie');
    await page.getByTestId('photo-tile').first().tap();
    await expect(page.getByRole('button', { name: 'Imprimer' })).toBeVisible();
    await context.close();
  });

  test('a phone in German reads French, or English when its list names English after German', async ({ browser, baseURL }) => {
    const german = await browser.newContext({ baseURL, viewport: PHONES[0], isMobile: true, hasTouch: true, locale: 'de-DE' });
    const page = await german.newPage();
    const first = await page.goto('/');
    // The server cannot tell: the page keeps the booth's French, unmarked, and the app asks the browser.
    expect(await first!.text()).toContain('<html lang="fr">');
    await expect(page.getByTestId('language-switch')).toHaveText('EN');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await german.close();

    const both = await browser.newContext({ baseURL, viewport: PHONES[0], isMobile: true, hasTouch: true, locale: 'de-DE' });
    const second = await both.newPage();
    await second.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'en-GB'] }));
    await second.goto('/');
    await expect(second.getByTestId('language-switch')).toHaveText('FR');
    await expect(second.locator('html')).toHaveAttribute('lang', 'en');
    await second.getByTestId('photo-tile').first().tap();
    await expect(second.getByRole('button', { name: 'Print' })).toBeVisible();
    await both.close();
  });
});
