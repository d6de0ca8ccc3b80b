import { expect, isolatedTest as test } from './fixtures.js';
import { FRAME_FILE, POSTER_FRAME_FILE } from '../../server/capture/simulator/simulator.defaults.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('a frame the capture app drops is named in the save notice, never as saved', async ({ page, service }) => {
  // A capture-app release that does not know the collage's frame field: it answers 200 and drops it.
  service.simulator?.dropKeys(['actions.collage.*.processing.canvas_img_front_file']);
  await unlockConsole(page, '/admin/actions/2');
  await page.getByTestId('file-free-frame').fill('userdata/demoassets/frames/frame_image_photobooth-app.png');
  await page.getByTestId('editor-save').click();
  const notice = page.getByTestId('notice');
  await expect(notice).toHaveText(/photobooth-app n’a pas gardé\s: cadre de l’action 2\./);
  await expect(notice).not.toContainText('enregistrée');
  await page.screenshot({ path: 'test-screens/action-not-kept.png' });
  // The form shows what the capture app holds now: no frame file.
  await expect(page.getByTestId('file-free-frame')).toHaveValue('');
});

test('a preset restore whose frame the capture app drops names it instead of « restauré »', async ({ page, service }) => {
  await unlockConsole(page, '/admin/actions');
  const frame = (file: string) => page.request.put('/api/admin/actions/1', { data: { 'frame.file': file } });
  expect((await frame(POSTER_FRAME_FILE)).status()).toBe(200);
  expect((await page.request.post('/api/admin/actions/presets', { data: { name: 'Affiche' } })).status()).toBe(201);
  expect((await frame(FRAME_FILE)).status()).toBe(200);
  // From now on the capture app is a release that does not know the collage's frame field.
  service.simulator?.dropKeys(['actions.collage.*.processing.canvas_img_front_file']);
  await page.reload();
  await page.getByTestId('preset-Affiche').getByTestId('preset-restore').click();
  await page.getByTestId('confirm-ok').click();
  const notice = page.getByTestId('notice');
  await expect(notice).toHaveText(/photobooth-app n’a pas gardé\s: cadre de l’action 2\./);
  await expect(notice).not.toContainText('restauré');
  // Nor does the restart banner call the write saved.
  await expect(page.getByText(/enregistrée?s?\./)).toHaveCount(0);
  await page.screenshot({ path: 'test-screens/preset-not-kept.png' });
});
