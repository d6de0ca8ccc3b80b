import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('a frame the capture app drops is named in the save notice, never as saved', async ({ page, service }) => {
  // A capture-app release that does not know the collage's frame field: it answers 200 and drops it.
  service.simulator?.dropKeys(['actions.collage.*.processing.canvas_img_front_file']);
  await unlockConsole(page, '/admin/actions/2');
  await page.getByTestId('file-free-frame').fill('userdata/demoassets/frames/frame_image_photobooth-app.png');
  await page.getByTestId('editor-save').click();
  const notice = page.getByTestId('notice');
  await expect(notice).toHaveText(/photobooth-app n’a pas gardé : cadre de l’action 2\./);
  await expect(notice).not.toContainText('enregistrée');
  await page.screenshot({ path: 'test-screens/action-not-kept.png' });
  // The form shows what the capture app holds now: no frame file.
  await expect(page.getByTestId('file-free-frame')).toHaveValue('');
});
