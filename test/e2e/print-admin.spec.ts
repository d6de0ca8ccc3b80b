import type { FakePrinter } from '../../server/print/printer.fake.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('the operator sees the queue live, the printer state in words, cancels and resets a counter', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala' });
  const a = await service.simulator!.capture('a');
  const b = await service.simulator!.capture('b');
  await expect.poll(() => service.services.photoRepository.count()).toBe(2);
  const printer = service.printer as FakePrinter;
  printer.hold = true;

  await unlockConsole(page, '/admin/print');
  await expect(page.getByTestId('printer-state-text')).toHaveText('Photo : Prête à imprimer');
  await expect(page.getByTestId('print-queue-empty')).toBeVisible();

  const first = (await service.services.print.requestAdmin(a.id, 2)).job.id;
  const second = (await service.services.print.requestAdmin(b.id, 1)).job.id;
  const firstRow = page.getByTestId(`print-job-${first}`);
  const secondRow = page.getByTestId(`print-job-${second}`);
  await expect(firstRow.getByTestId('print-job-state')).toHaveText('En cours');
  await expect(secondRow.getByTestId('print-job-state')).toHaveText('En attente');

  // Out of paper: the state says so, in words; CUPS's own words only behind Détails.
  printer.setState('Photo', 'stopped', ['media-empty-error'], 'Paper out');
  await expect(page.getByTestId('printer-pause')).toHaveText(
    'Le système d’impression a arrêté la file : réglez le problème (papier, ruban, câble), puis touchez «\u00a0Reprendre l’impression\u00a0».',
  );
  await expect(page.getByTestId('printer-reason')).toHaveText('Le papier est épuisé.');
  await expect(page.getByTestId('printer-state-text')).toHaveText('Photo : Plus de papier');
  await expect(page.getByText('Paper out')).toBeHidden();
  await page.getByTestId('printer-details').locator('summary').click();
  await expect(page.getByTestId('printer-details')).toContainText('Paper out');
  await page.screenshot({ path: 'test-screens/print-admin-paused.png' });

  await secondRow.getByTestId('print-job-cancel').click();
  await expect(secondRow.getByTestId('print-job-state')).toHaveText('Annulée');

  printer.setState('Photo', 'idle');
  printer.finish(printer.jobs[0]!.id);
  await expect(firstRow.getByTestId('print-job-state')).toHaveText('Imprimée');
  await expect(page.getByTestId('printer-pause')).toHaveCount(0);
  await expect(page.getByTestId('counter-total')).toContainText('2');
  await page.screenshot({ path: 'test-screens/print-admin.png' });

  await page.getByTestId('counter-reset-today').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('counter-today')).toContainText('0');
  await expect(page.getByTestId('counter-total')).toContainText('2');

  await page.getByTestId('print-clear').click();
  await expect(page.getByTestId('print-queue-empty')).toBeVisible();
});

test('settings take effect at once, and the admin lightbox prints without quota', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala' });
  const a = await service.simulator!.capture('a');
  await expect.poll(() => service.services.photoRepository.count()).toBe(1);

  await unlockConsole(page, '/admin/print');
  await page.getByTestId('print-quota').fill('0');
  await page.getByTestId('print-max-copies').fill('2');
  await page.getByTestId('print-printer').selectOption('Photo');
  await page.getByTestId('print-save').click();
  await expect.poll(() => service.services.settings.stored().print).toMatchObject({ quota: 0, max_copies: 2, printer: 'Photo' });

  await page.goto('/admin/gallery');
  await page.getByTestId('photo-tile').first().click();
  await page.locator('.viewer-print').click();
  await page.getByTestId('copies-more').click();
  await page.getByTestId('admin-print-send').click();
  const printer = service.printer as FakePrinter;
  await expect.poll(() => printer.jobs.map((j) => j.copies)).toEqual([2]);
  await expect.poll(() => service.services.photoRepository.find(a.id)?.printed_copies).toBe(2);
});
