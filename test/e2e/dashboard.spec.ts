import { readFileSync } from 'node:fs';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

const asFile = (name: string, text: string) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

test('status at a glance: capture app, current event with its chart, disks, board, version', async ({ page, service }) => {
  service.system.respond('vcgencmd', { code: 0, stdout: 'throttled=0x50000\n', stderr: '' });
  service.services.events.create({ name: 'Gala' });
  for (let i = 0; i < 3; i++) await service.simulator!.capture(`gala ${i}`);
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);

  await unlockConsole(page, '/admin/dashboard');
  await expect(page.getByTestId('dash-capture')).toContainText('Joignable');
  await expect(page.getByTestId('dash-event')).toContainText('Gala');
  await expect(page.getByTestId('dash-event-count')).toHaveText('3 photos');
  await expect(page.getByTestId('dash-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('dash-disk-data')).toContainText('libres sur');
  await expect(page.getByTestId('dash-disk-capture')).toContainText('photos possibles');
  await expect(page.getByTestId('dash-board')).toContainText('Tension trop basse depuis le démarrage');
  await expect(page.getByTestId('dash-board')).toContainText('Ralentissements depuis le démarrage');
  await expect(page.getByTestId('dash-version')).toHaveText(/^\d+\.\d+\.\d+/);
  await expect(page.getByTestId('dash-print-state')).toHaveText('Au repos');
  await page.screenshot({ path: 'test-screens/dashboard.png' });
  await page.getByTestId('dash-settings').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/dashboard-bottom.png' });
});

test('each button asks first, then runs its command and says what happened, in sentences', async ({ page, service }) => {
  await unlockConsole(page, '/admin/dashboard');
  const commands = () => service.system.calls.filter((c) => c.command === 'systemctl').map((c) => c.args.join(' '));

  await page.getByTestId('dash-restart-capture').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Redémarrer l’application de capture ?');
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('confirm-dialog')).toBeHidden();

  // The same restart as the home screen's: the capture app's own restart, announced by the banner.
  await page.getByTestId('dash-restart-capture').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('restart-banner')).toBeVisible();
  await expect.poll(() => service.simulator!.state().restarts).toBe(1);
  expect(commands()).toEqual([]);

  service.system.respond('systemctl', { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found' });
  await page.getByTestId('dash-reboot').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Toute la borne s’éteint et redémarre');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('dash-result')).toContainText('La borne n’a pas pu redémarrer');
  expect(commands()).toEqual(['reboot']);
  // No command, code or system words on screen until the operator asks for the details.
  const main = page.locator('main');
  await expect(main).not.toContainText(/exit code|systemctl|\/var\/|Failed to/);
  await page.screenshot({ path: 'test-screens/dashboard-failed.png' });
  await page.getByTestId('dash-maintenance').getByTestId('details-toggle').click();
  await expect(page.getByTestId('details-text')).toContainText('Failed to connect to bus');

  await page.getByTestId('dash-restart-boothdeck').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('sans nouveau code PIN');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('dash-result')).toContainText('Boothdeck redémarre');
  await expect.poll(() => service.relaunches.count).toBe(1);
});

test('the log tail shows the latest lines and filters them by level', async ({ page, service }) => {
  service.services.ports.log.warn('Capture app slow to answer');
  service.services.ports.log.error('Printer went offline', new Error('usb disconnected'));
  await unlockConsole(page, '/admin/dashboard');
  const lines = page.getByTestId('dash-log-line');
  // Sentences in the console's language; the English lines wait behind "Détails".
  await expect(lines.first()).toContainText('Erreur technique.');
  await expect(page.getByTestId('dash-log-lines')).not.toContainText('Printer went offline');
  await expect(page.getByTestId('dash-log-lines')).toContainText('L’application de capture est connectée.');
  await page.getByTestId('dash-logs-details').click();
  await expect(lines.first()).toContainText('Printer went offline — usb disconnected');
  await expect(page.getByTestId('dash-log-lines')).toContainText('Capture app slow to answer');
  await page.getByTestId('dash-logs-level-error').click();
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText('Erreur');
  await page.getByTestId('dash-logs-level-warn').click();
  await expect(lines).toHaveCount(2);
  await page.getByTestId('dash-logs-level-info').click();
  await expect(page.getByTestId('dash-log-lines')).toContainText('Liste des photos mise à jour.');
  await page.getByTestId('dash-logs').screenshot({ path: 'test-screens/dashboard-logs.png' });
});

test('settings: the delete button restarts the capture app, the gallery address, the language, the connection', async ({
  page,
  service,
}) => {
  await unlockConsole(page, '/admin/dashboard');
  const settings = page.getByTestId('dash-settings');
  await expect(page.getByTestId('dash-connection')).toContainText(service.captureUrl);
  await expect(page.getByTestId('dash-connection')).toContainText('Joignable');

  await expect(page.getByTestId('dash-show-delete')).toBeChecked();
  await page.getByTestId('dash-show-delete').uncheck();
  await expect(page.getByTestId('dash-show-delete-hint')).toHaveText('Enregistrer ce réglage redémarre l’application de capture.');
  await page.getByTestId('dash-settings-save').click();
  await expect(page.getByTestId('notice')).toContainText('L’application de capture redémarre');
  const config = await service.services.ports.capture.getConfig();
  expect((config.uisettings as { gallery_show_delete: boolean }).gallery_show_delete).toBe(false);

  await page.getByTestId('dash-public-url').fill('photos.example');
  await expect(page.getByTestId('dash-public-url-error')).toBeVisible();
  await expect(page.getByTestId('dash-settings-save')).toBeDisabled();
  // Typed with a trailing slash, which the service drops: the form then shows what was kept, saved.
  await page.getByTestId('dash-public-url').fill('http://photos.example/');
  await page.getByTestId('dash-settings-save').click();
  // This save's own words: the first save's ("Réglages enregistrés. L’application de capture
  // redémarre…") is still on screen while this one is under way.
  await expect(page.getByTestId('notice').getByText('Réglages enregistrés.', { exact: true })).toBeVisible();
  expect(service.services.settings.stored().gallery.public_url).toBe('http://photos.example');
  await expect(page.getByTestId('dash-public-url')).toHaveValue('http://photos.example');
  await expect(page.getByTestId('dash-settings-save')).toBeDisabled();
  await settings.screenshot({ path: 'test-screens/dashboard-settings.png' });

  await page.getByTestId('dash-language-en').click();
  await expect(page.getByTestId('dash-settings')).toContainText('Console language');
  await page.getByTestId('dash-language-fr').click();
  await expect(page.getByTestId('dash-settings')).toContainText('Langue de la console');
});

test('backup: download one file, a bad file is refused with its faults, a good one is restored', async ({ page, service }) => {
  await unlockConsole(page, '/admin/dashboard');
  const download = page.waitForEvent('download');
  await page.getByTestId('dash-backup-download').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^boothdeck-backup-\d{8}-\d{4}\.json$/);
  const backup = JSON.parse(readFileSync(await file.path(), 'utf8')) as { settings: { print: { quota: number } } };

  const bad = structuredClone(backup);
  bad.settings.print.quota = -1;
  await page.getByTestId('dash-backup-file').setInputFiles(asFile('bad-backup.json', JSON.stringify(bad)));
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('dash-backup-error')).toContainText('Cette sauvegarde n’est pas valide, rien n’a été modifié');
  await expect(page.getByTestId('dash-backup-error')).toContainText('Quota d’impression : cette valeur est trop petite.');
  await page.getByTestId('dash-backup').screenshot({ path: 'test-screens/dashboard-backup-refused.png' });

  // A wrong backup names each part at fault as the operator knows it, never "Un réglage".
  const wrong = structuredClone(backup) as unknown as {
    settings: { hardware: { led: { count: number } } };
    presets: { name: string; description: string; created_at: string; actions: unknown[] }[];
  };
  wrong.settings.hardware.led.count = -3;
  wrong.presets = [{ name: '', description: 'x', created_at: '2026-01-01', actions: [] }];
  await page.getByTestId('dash-backup-file').setInputFiles(asFile('wrong-backup.json', JSON.stringify(wrong)));
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('dash-backup-error')).toContainText('Anneau LED — nombre de LED : cette valeur est trop petite.');
  await expect(page.getByTestId('dash-backup-error')).toContainText('Préréglage 1 — nom : ce champ est obligatoire.');
  await expect(page.getByTestId('dash-backup-error')).not.toContainText('Un réglage');
  await page.getByTestId('dash-backup').screenshot({ path: 'test-screens/dashboard-backup-wrong.png' });

  await page.getByTestId('dash-backup-file').setInputFiles(asFile('other.json', JSON.stringify({ hello: 'world' })));
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('dash-backup-error')).toHaveText('Ce fichier n’est pas une sauvegarde de Boothdeck. Rien n’a été modifié.');

  await page.getByTestId('dash-backup-file').setInputFiles(asFile('not-json.json', '{ oops'));
  await expect(page.getByTestId('dash-backup-error')).toContainText('JSON invalide');

  await service.services.settings.update({ print: { quota: 1 } });
  await page.getByTestId('dash-backup-file').setInputFiles(asFile('good-backup.json', JSON.stringify(backup)));
  await expect(page.getByTestId('confirm-dialog')).toContainText('good-backup.json');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('notice')).toContainText('Sauvegarde restaurée');
  // What came back stays in the panel once the notice is gone.
  await page.getByTestId('notice').getByRole('button', { name: 'Fermer' }).click();
  await expect(page.getByTestId('dash-backup-done')).toContainText('Sauvegarde restaurée');
  expect(service.services.settings.stored().print.quota).toBe(backup.settings.print.quota);
});
