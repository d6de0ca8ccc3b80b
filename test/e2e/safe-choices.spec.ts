import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

const BACKGROUND_JPEG = 'userdata/demoassets/backgrounds/pink-7761356_1920.jpg';

test('an opaque image as a frame is not offered, is warned about when typed, and needs a confirmation', async ({ page, service }) => {
  await unlockConsole(page, '/admin/actions/1');
  await page.getByTestId('file-select-frame').click();
  const frameOptions = page.getByTestId('file-options-frame').getByTestId('file-option');
  await expect(frameOptions.first()).toBeVisible();
  await expect(page.locator(`[data-testid="file-options-frame"] [data-path="${BACKGROUND_JPEG}"]`)).toHaveCount(0);
  await page.getByTestId('file-select-frame').click();

  await page.getByTestId('file-free-frame').fill(BACKGROUND_JPEG);
  await expect(page.getByTestId('file-warning-frame')).toHaveText(
    /aucune transparence\s: utilisée comme cadre, elle cachera entièrement la photo/,
  );
  await page.screenshot({ path: 'test-screens/opaque-frame-warning.png' });
  const writes = service.simulator!.state().config_writes;
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Cadre sans transparence');
  await page.getByTestId('confirm-cancel').click();
  expect(service.simulator!.state().config_writes).toBe(writes);

  // A path that names no file is refused before anything is sent.
  await page.getByTestId('file-free-frame').fill('userdata/nulle-part.png');
  await expect(page.getByTestId('file-warning-frame')).toHaveText('Ce fichier n’existe pas dans les fichiers de la borne.');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toHaveText(/Action 1\s— Cadre\s: ce fichier n’existe pas dans les fichiers de la borne\./);
  expect(service.simulator!.state().config_writes).toBe(writes);
});
