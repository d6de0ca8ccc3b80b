import { test as base, type Page } from '@playwright/test';
import { CupsPrinter } from '../../server/print/printer.cups.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import { createQueue, pdfOf, queueCommand, queuePolicy, removeQueue, requireCups } from '../support/cups.js';
import { startTestService, type TestService } from '../support/service.js';
import { ADMIN_PIN, expect } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

/** A queue of this test's own on the real CUPS-PDF (others share `PDF`), removed with its jobs at the end. */
const QUEUE = `BDe2e${process.pid}`;
const SMALL_SCREEN = { width: 800, height: 480 } as const;
const STOPPED_TODO =
  'Le système d’impression a arrêté la file : réglez le problème (papier, ruban, câble), puis touchez «\u00a0Reprendre l’impression\u00a0».';

const test = base.extend<{ service: TestService }>({
  service: async ({}, use) => {
    requireCups();
    removeQueue(QUEUE);
    createQueue(QUEUE);
    const service = await startTestService({ BOOTHDECK_ADMIN_PIN: ADMIN_PIN }, { printer: new CupsPrinter(createExecSystem()) });
    await service.services.settings.update({ print: { printer: QUEUE } });
    await use(service);
    await service.close();
    removeQueue(QUEUE);
  },
  baseURL: async ({ service }, use) => {
    await use(service.localUrl);
  },
});

test.use({ viewport: BOOTH_SCREEN, hasTouch: true });

/** Two operator prints waiting behind the stopped queue; their job ids in the order sent. */
async function waitingJobs(service: TestService, photoId: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) ids.push((await service.services.print.requestAdmin(photoId, 1)).job.id);
  for (const id of ids) expect(service.services.print.job(id).state).toBe('queued');
  return ids;
}

/** Each job done, each its own CUPS job, in the order sent, with its PDF. */
async function printedInOrder(service: TestService, ids: number[]): Promise<void> {
  await expect.poll(() => ids.map((id) => service.services.print.job(id).state), { timeout: 20_000 }).toEqual(ids.map(() => 'done'));
  const cupsIds = ids.map((id) => Number(service.services.print.job(id).cups_job_id?.split('-').pop()));
  expect(new Set(cupsIds).size).toBe(ids.length);
  expect([...cupsIds].sort((a, b) => a - b)).toEqual(cupsIds);
  for (const id of ids) await expect.poll(() => pdfOf(service.services.print.job(id).cups_job_id ?? ''), { timeout: 10_000 }).toBeDefined();
}

async function stopQueue(page: Page, service: TestService, where: string): Promise<void> {
  queueCommand('cupsdisable', QUEUE);
  await service.services.printWorker.refreshPrinter();
  await expect(page.getByTestId(where)).toBeVisible();
}

test('a queue CUPS stopped is resumed from the home screen and the print dialog; the policy is chosen on the Impression page', async ({
  page,
  service,
}) => {
  // Four prints through the real CUPS-PDF, one after the other.
  test.setTimeout(90_000);
  service.services.events.create({ name: 'Bal' });
  const photo = await service.simulator!.capture('cups');
  await expect.poll(() => service.services.photoRepository.find(photo.id)).toBeDefined();

  // Stopped, with two prints waiting: the Impression page says what to do and offers the button.
  await unlockConsole(page, '/admin/print');
  await stopQueue(page, service, 'printer-resume');
  const first = await waitingJobs(service, photo.id);
  await expect(page.getByTestId('printer-pause')).toHaveText(STOPPED_TODO);
  await expect(page.getByTestId('printer-state-text')).toHaveText(`${QUEUE} : En pause`);
  await page.screenshot({ path: 'test-screens/print-resume-page-1280.png' });
  await page.setViewportSize(SMALL_SCREEN);
  await page.getByTestId('printer-resume').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/print-resume-page-800.png' });

  // The home screen's printer card: the same button, at both sizes.
  await page.goto('/admin');
  await expect(page.getByTestId('printer-glance').getByTestId('printer-resume')).toBeVisible();
  await expect(page.getByTestId('printer-glance-todo')).toHaveText(STOPPED_TODO);
  await page.getByTestId('printer-glance').getByTestId('printer-resume').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/print-resume-home-800.png' });
  await page.setViewportSize(BOOTH_SCREEN);
  await page.screenshot({ path: 'test-screens/print-resume-home-1280.png' });

  await page.getByTestId('printer-glance').getByTestId('printer-resume').click();
  await expect(page.getByTestId('printer-resume-said')).toHaveText('L’impression a repris : les photos en attente sortent dans l’ordre.', {
    timeout: 10_000,
  });
  await expect(page.getByTestId('printer-glance')).toHaveAttribute('data-pause', '');
  await expect(page.getByTestId('printer-resume')).toHaveCount(0);
  await page.screenshot({ path: 'test-screens/print-resume-home-resumed.png' });
  await printedInOrder(service, first);

  // Stopped again: the operator's print dialog offers the button too.
  await page.goto('/admin/gallery');
  queueCommand('cupsdisable', QUEUE);
  await service.services.printWorker.refreshPrinter();
  const second = await waitingJobs(service, photo.id);
  await page.getByTestId('photo-tile').first().click();
  await page.locator('.viewer-print').click();
  const dialog = page.getByTestId('admin-print-dialog');
  await expect(dialog.getByTestId('admin-print-warning')).toContainText('En pause');
  await page.screenshot({ path: 'test-screens/print-resume-dialog.png' });
  await dialog.getByTestId('printer-resume').click();
  await expect(dialog.getByTestId('printer-resume-said')).toHaveText(
    'L’impression a repris : les photos en attente sortent dans l’ordre.',
    {
      timeout: 10_000,
    },
  );
  await expect(dialog.getByTestId('admin-print-warning')).toHaveCount(0);
  await printedInOrder(service, second);

  // The error policy, chosen in the settings and read back from CUPS.
  await page.goto('/admin/print');
  expect(await queuePolicy(QUEUE)).toBe('retry-current-job');
  await expect(page.getByTestId('print-policy-retry')).toBeChecked();
  await page.getByTestId('print-policy-stop').check();
  await page.getByTestId('print-save').click();
  await expect.poll(() => queuePolicy(QUEUE)).toBe('stop-printer');
  await page.getByTestId('print-policy').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/print-resume-policy.png' });
  await page.getByTestId('print-policy-retry').check();
  await page.getByTestId('print-save').click();
  await expect.poll(() => queuePolicy(QUEUE)).toBe('retry-current-job');
  await expect(page.getByTestId('print-policy-refused')).toHaveCount(0);
});
