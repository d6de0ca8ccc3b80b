import { readFileSync } from 'node:fs';
import { test as base } from '@playwright/test';
import { CupsPrinter } from '../../server/print/printer.cups.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import { CUPS_PRINTER, cupsCommand, cupsCopies, pdfOf, requireCups } from '../support/cups.js';
import { startTestService, type TestService } from '../support/service.js';
import { ADMIN_PIN, expect } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, unlockConsole } from './helpers.js';

/** A service of its own whose printer is the real CUPS server `npm run test:deps` set up. */
const test = base.extend<{ service: TestService }>({
  service: async ({}, use) => {
    requireCups();
    const service = await startTestService({ BOOTHDECK_ADMIN_PIN: ADMIN_PIN }, { printer: new CupsPrinter(createExecSystem()) });
    await service.services.settings.update({ print: { printer: CUPS_PRINTER } });
    await use(service);
    cupsCommand('cupsenable');
    await service.close();
  },
  baseURL: async ({ service }, use) => {
    await use(service.localUrl);
  },
});

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

test('a guest’s print waits while the CUPS queue is disabled, then comes out as a PDF with its copies', async ({ page, service }) => {
  service.services.events.create({ name: 'Bal' });
  const photo = await service.simulator!.capture('cups');
  await expect.poll(() => service.services.photoRepository.find(photo.id)).toBeDefined();
  cupsCommand('cupsdisable');

  await page.goto('/');
  await page.getByTestId('photo-tile').first().click();
  await page.locator('.viewer-print').click();
  await page.getByTestId('copies-more').click();
  await page.getByTestId('print-send').click();
  await expect(page.getByTestId('print-paused')).toHaveText('L’imprimante est en pause ; votre impression attend.');
  await expect(page.getByTestId('print-job-state')).toHaveText('Dans la file d’attente.');
  await page.screenshot({ path: 'test-screens/print-cups-paused.png' });

  cupsCommand('cupsenable');
  await expect(page.getByTestId('print-job-state')).toHaveText('Imprimée ! Récupérez-la à la borne.', { timeout: 20_000 });
  await expect(page.getByTestId('print-paused')).toHaveCount(0);
  const job = service.services.print.queue().then((q) => q.jobs[0]);
  const cupsJobId = (await job)?.cups_job_id ?? '';
  expect(cupsJobId).toMatch(/^PDF-\d+$/);
  const pdf = pdfOf(cupsJobId);
  expect(pdf).toBeDefined();
  expect(
    readFileSync(pdf ?? '')
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  expect(await cupsCopies(cupsJobId)).toBe(2);
  await page.getByTestId('print-close').click();
  await page.keyboard.press('Escape');
  await expect(page.locator(`[data-photo-id="${photo.id}"]`).getByTestId('print-badge')).toBeVisible();
});

test.describe('at the booth', () => {
  test.use({ viewport: BOOTH_SCREEN, isMobile: false, hasTouch: true });

  test('the home screen shows the printer paused within 5 s of cupsdisable, with nothing in the queue', async ({ page }) => {
    await unlockConsole(page, '/admin');
    await expect(page.getByTestId('printer-glance')).toHaveAttribute('data-pause', '');
    cupsCommand('cupsdisable');
    await expect(page.getByTestId('printer-glance')).not.toHaveAttribute('data-pause', '', { timeout: 5000 });
    await expect(page.getByTestId('printer-glance-state')).not.toBeEmpty();
    await page.screenshot({ path: 'test-screens/home-cups-paused.png' });
  });
});
