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
  await expect(dialog).toContainText(/les invités attendront (environ \d+\ssecondes?|quelques secondes)/);
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
  await expect(page.getByTestId('confirm-dialog')).toContainText(/environ \d+\ssecondes?/);
});

test('with no recent photos, Save does not ask', async ({ page, service }) => {
  service.services.events.create({ name: 'Calme' });
  await unlockConsole(page, '/admin/actions/1');
  await page.getByTestId('field-general.name').fill('Portrait');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
});

test('during an event, every change that restarts the capture app asks the same question first', async ({ page, service }) => {
  service.services.events.create({ name: 'Mariage' });
  await service.simulator!.capture('recent');
  await expect.poll(() => service.services.photoRepository.count()).toBe(1);
  const writes = service.simulator!.state().config_writes;
  const dialog = page.getByTestId('confirm-dialog');
  const asksAndCancel = async (): Promise<void> => {
    await expect(dialog).toContainText('Redémarrer pendant l’événement ?');
    await expect(dialog).toContainText('« Mariage »');
    await page.getByTestId('confirm-cancel').click();
    await expect(dialog).toHaveCount(0);
  };

  await unlockConsole(page, '/admin/actions');
  await page.getByTestId('action-card-0').getByTestId('action-clone').click();
  await asksAndCancel();

  await page.getByTestId('preset-name').fill('Soirée');
  await page.getByTestId('preset-save').click();
  await expect(page.getByTestId('preset-Soirée')).toBeVisible();
  // A change that asks its own question asks it once, with the restart added: never two dialogs.
  const asksOnceAndCancel = async (title: string): Promise<void> => {
    await expect(dialog.getByRole('heading')).toHaveText(title);
    await expect(page.getByTestId('confirm-points')).toContainText('« Mariage »');
    await expect(page.getByTestId('confirm-points')).toContainText('redémarre l’application de capture');
    await page.getByTestId('confirm-cancel').click();
    await expect(dialog).toHaveCount(0);
  };
  await page.getByTestId('preset-Soirée').getByTestId('preset-restore').click();
  await asksOnceAndCancel('Restaurer « Soirée » ?');
  await page.getByTestId('action-card-0').getByTestId('action-delete').click();
  await asksOnceAndCancel('Supprimer l’action ?');

  await page.getByTestId('nav-dashboard').click();
  await page.getByTestId('dash-show-delete').click();
  await page.getByTestId('dash-settings').getByRole('button', { name: 'Enregistrer' }).click();
  await asksAndCancel();

  // The restart buttons themselves, on the home screen and in Maintenance, ask the same.
  await page.getByTestId('dash-restart-capture').click();
  await asksAndCancel();
  await page.getByTestId('nav-home').click();
  await page.getByTestId('home-restart-capture').click();
  await asksAndCancel();

  expect(service.simulator!.state().config_writes).toBe(writes);
  expect(service.simulator!.state().restarts).toBe(0);
});
