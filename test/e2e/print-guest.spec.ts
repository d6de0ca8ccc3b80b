import type { Page } from '@playwright/test';
import type { FakePrinter } from '../../server/print/printer.fake.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { PHONE } from './helpers.js';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** Opens the first photo's lightbox and its Print modal, as a guest's thumb does. */
async function openPrint(page: Page): Promise<void> {
  await page.getByTestId('photo-tile').first().click();
  await page.locator('.viewer-print').click();
  await expect(page.getByTestId('print-dialog')).toBeVisible();
}

test('a long press on a photo in the grid opens Print without opening the lightbox', async ({ page, service }) => {
  service.services.events.create({ name: 'Mariage' });
  const photo = await service.simulator!.capture('a');
  await expect.poll(() => service.services.photoRepository.find(photo.id)).toBeDefined();
  await page.goto('/');
  const tile = page.getByTestId('photo-tile').first();
  const box = (await tile.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(page.getByTestId('print-dialog')).toBeVisible();
  await page.mouse.up();
  await expect(page.locator('.viewer-print')).toBeHidden();
  await expect(page.getByTestId('copies-value')).toHaveText('1');
  // A short tap still opens the lightbox.
  await page.getByTestId('print-close').click();
  await tile.click();
  await expect(page.locator('.viewer-print')).toBeVisible();
});

test('a guest chooses copies with − and +, up to the max, sends, and follows the job to printed', async ({ page, service }) => {
  service.services.events.create({ name: 'Mariage' });
  const photo = await service.simulator!.capture('a');
  await expect.poll(() => service.services.photoRepository.find(photo.id)).toBeDefined();
  const printer = service.printer as FakePrinter;
  printer.hold = true;

  await page.goto('/');
  await openPrint(page);
  await expect(page.getByTestId('copies-value')).toHaveText('1');
  await expect(page.getByTestId('copies-less')).toBeDisabled();
  await expect(page.getByTestId('print-remaining')).toContainText('Il vous reste 5 impressions sur 5.');
  await page.getByTestId('copies-more').click();
  await page.getByTestId('copies-more').click();
  await expect(page.getByTestId('copies-value')).toHaveText('3');
  await expect(page.getByTestId('copies-more')).toBeDisabled();
  await page.getByTestId('copies-less').click();
  await expect(page.getByTestId('print-send')).toHaveText('Imprimer 2 copies');
  await page.screenshot({ path: 'test-screens/print-guest-modal.png' });

  await page.getByTestId('print-send').click();
  await expect(page.getByTestId('print-job-state')).toHaveText('Impression en cours…');
  await expect(page.getByTestId('print-remaining')).toContainText('Il vous reste 3 impressions sur 5.');
  await expect.poll(() => printer.jobs.length).toBe(1);
  printer.finish(printer.jobs[0]!.id);
  await expect(page.getByTestId('print-job-state')).toHaveText('Imprimée ! Récupérez-la à la borne.');
  await page.screenshot({ path: 'test-screens/print-guest-done.png' });
  expect(printer.jobs.map((j) => j.copies)).toEqual([2]);
  await page.getByTestId('print-close').click();
  await page.keyboard.press('Escape');
  // The badge changes live in the open gallery.
  await expect(page.locator(`[data-photo-id="${photo.id}"]`).getByTestId('print-badge')).toBeVisible();
});

test('a fresh session on a phone that printed its share is told the phone’s limit, not “your prints”', async ({
  page,
  browser,
  baseURL,
  service,
}) => {
  service.services.events.create({ name: 'Soirée' });
  const photo = await service.simulator!.capture('a');
  await expect.poll(() => service.services.photoRepository.find(photo.id)).toBeDefined();
  await service.services.settings.update({ print: { quota: 2, max_copies: 2, sessions_per_address: 1 } });
  await page.goto('/');
  await openPrint(page);
  await page.getByTestId('copies-more').click();
  await page.getByTestId('print-send').click();
  await expect(page.getByTestId('print-job-state')).toBeVisible();

  // The same phone, its cookies cleared (or another browser): a new session, the phone's share used.
  const fresh = await browser.newContext({ baseURL });
  const again = await fresh.newPage();
  await again.goto('/');
  await openPrint(again);
  await expect(again.getByTestId('print-refusal')).toHaveText(
    'Ce téléphone a déjà demandé toutes les impressions permises à un appareil, d’autres onglets ou navigateurs compris.',
  );
  await expect(again.getByTestId('print-send')).toBeDisabled();
  await fresh.close();
});

test('the modal bounds copies by what is left, and says why it cannot print at quota or when disabled', async ({ page, service }) => {
  service.services.events.create({ name: 'Soirée' });
  const photo = await service.simulator!.capture('a');
  await expect.poll(() => service.services.photoRepository.find(photo.id)).toBeDefined();
  await service.services.settings.update({ print: { quota: 2, max_copies: 3 } });

  await page.goto('/');
  await openPrint(page);
  await page.getByTestId('copies-more').click();
  await expect(page.getByTestId('copies-value')).toHaveText('2');
  await expect(page.getByTestId('copies-more')).toBeDisabled();
  await page.getByTestId('print-send').click();
  await expect(page.getByTestId('print-job-state')).toBeVisible();
  await page.getByTestId('print-close').click();

  await page.locator('.viewer-print').click();
  await expect(page.getByTestId('print-refusal')).toHaveText('Vous avez utilisé toutes vos impressions (2).');
  await expect(page.getByTestId('print-send')).toBeDisabled();
  await expect(page.getByTestId('print-send')).toHaveText('Quota atteint');
  await page.screenshot({ path: 'test-screens/print-guest-quota.png' });
  await page.getByTestId('print-close').click();

  await service.services.settings.update({ print: { enable: false } });
  await page.locator('.viewer-print').click();
  await expect(page.getByTestId('print-refusal')).toHaveText('L’impression est désactivée pour le moment.');
  await expect(page.getByTestId('print-send')).toBeDisabled();
  await expect(page.getByTestId('print-send')).toHaveText('Impression désactivée');
  await expect(page.getByTestId('copies-more')).toBeDisabled();
});
