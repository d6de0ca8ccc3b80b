import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('during an event with recent photos, Save asks first and says how long guests will wait', async ({ page, service }) => {
  service.services.events.create({ name: 'Mariage' });
  await service.simulator!.capture('recent');
  await expect.poll(() => service.services.photoRepository.count()).toBe(1);

  await unlockConsole(page, '/admin/actions/1');
  await expect(page.getByTestId('editor-save')).toHaveText('Enregistrer et redémarrer');
  const writes = service.simulator!.state().config_writes;
  await page.getByTestId('field-general.name').fill('Portrait');
  await page.getByTestId('editor-save').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('Redémarrer pendant l’événement ?');
  await expect(dialog).toContainText('« Mariage »');
  await expect(dialog).toContainText(/les invités attendront (environ \d+ secondes|quelques secondes)/);
  await page.screenshot({ path: 'test-screens/restart-confirm.png' });

  // Cancel keeps the draft and changes nothing.
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('field-general.name')).toHaveValue('Portrait');
  expect(service.simulator!.state().config_writes).toBe(writes);

  await page.getByTestId('editor-save').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  // The banner stays in view from the top of the page, then goes a few seconds after success.
  await expect(page.getByTestId('restart-banner')).toBeInViewport();
  await expect(page.getByTestId('restart-banner')).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  await expect(page.getByTestId('restart-banner')).toHaveCount(0, { timeout: 8000 });

  // The next time, the wait is the one measured.
  await page.getByTestId('field-general.name').fill('Portrait 2');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(/environ \d+ secondes/);
});

test('with no recent photos, Save does not ask', async ({ page, service }) => {
  service.services.events.create({ name: 'Calme' });
  await unlockConsole(page, '/admin/actions/1');
  await page.getByTestId('field-general.name').fill('Portrait');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
});
