import type { Page } from '@playwright/test';
import type { ActionsResponse, BoothAction } from '../../server/contract/actions.contract.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

async function stored(page: Page): Promise<BoothAction[]> {
  const res = await page.request.get('/api/admin/actions');
  return ((await res.json()) as ActionsResponse).actions;
}
const storedNames = async (page: Page): Promise<string[]> => (await stored(page)).map((a) => a.general.name);
const cardNames = (page: Page) => page.getByTestId('action-list').getByTestId('action-name');

/** Drags a card by its handle onto another card's place, with a finger-like pointer path. */
async function dragCard(page: Page, from: number, to: number): Promise<void> {
  const handle = page.getByTestId(`action-card-${from}`).getByTestId('drag-handle');
  const target = page.getByTestId(`action-card-${to}`);
  const a = (await handle.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  const steps = 12;
  const endY = to < from ? b.y + 8 : b.y + b.height - 8;
  for (let i = 1; i <= steps; i++)
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + ((endY - (a.y + a.height / 2)) * i) / steps);
  await page.mouse.up();
}

test('the page loads its list from the API and shows each action as a card', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await expect(cardNames(page)).toHaveText(['Photo simple', 'Collage', 'Animation', 'Video']);
  await expect(page.getByTestId('action-card-0').getByTestId('frame-thumb')).toBeVisible();
  await expect(page.getByTestId('action-card-0').getByTestId('button-preview')).toContainText('Image');
  await page.screenshot({ path: 'test-screens/actions-list.png', fullPage: true });
});

test('the operator creates an action and finds it at the end of the list', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await page.getByTestId('action-new').click();
  await page.getByTestId('new-kind-image').click();
  await page.getByTestId('new-action-name').fill('Portrait');
  await page.screenshot({ path: 'test-screens/actions-new.png' });
  await page.getByTestId('new-action-create').click();
  await expect(page.getByTestId('action-editor')).toBeVisible();
  await expect(page.getByTestId('field-general.name')).toHaveValue('Portrait');
  expect(await storedNames(page)).toEqual(['Photo simple', 'Collage', 'Animation', 'Video', 'Portrait']);
  await page.getByTestId('editor-back').click();
  await expect(cardNames(page)).toHaveText(['Photo simple', 'Collage', 'Animation', 'Video', 'Portrait']);
});

test('editing the button title saves it, and the capture app is restarted and the screen refreshed', async ({ page, service }) => {
  await unlockConsole(page, '/admin/actions');
  await page.getByTestId('action-card-0').getByTestId('action-edit').click();
  await page.getByTestId('field-ui_trigger.title').fill('Souriez !');
  await page.screenshot({ path: 'test-screens/action-editor.png', fullPage: true });
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  expect((await stored(page))[0]?.ui_trigger.title).toBe('Souriez !');
  await expect(page.getByTestId('restart-banner')).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  await expect(page.getByTestId('restart-banner')).toContainText('écran rafraîchi');
  expect(service.simulator?.state().restarts).toBe(1);
  expect(service.system.calls.map((c) => c.command)).toEqual(['wtype']);
});

test('a drag-and-drop reorder is stored only when the operator saves', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await dragCard(page, 2, 0);
  await expect(cardNames(page)).toHaveText(['Animation', 'Photo simple', 'Collage', 'Video']);
  await expect(page.getByTestId('order-bar')).toBeVisible();
  expect(await storedNames(page)).toEqual(['Photo simple', 'Collage', 'Animation', 'Video']);
  await page.screenshot({ path: 'test-screens/actions-reordered.png' });
  await page.getByTestId('order-save').click();
  await expect(page.getByTestId('order-bar')).toBeHidden();
  expect(await storedNames(page)).toEqual(['Animation', 'Photo simple', 'Collage', 'Video']);
  await page.reload();
  await expect(cardNames(page)).toHaveText(['Animation', 'Photo simple', 'Collage', 'Video']);
});

test('without Save, a reorder changes nothing: Cancel restores, and leaving asks first', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await dragCard(page, 3, 1);
  await expect(cardNames(page)).toHaveText(['Photo simple', 'Video', 'Collage', 'Animation']);
  await page.getByTestId('order-cancel').click();
  await expect(cardNames(page)).toHaveText(['Photo simple', 'Collage', 'Animation', 'Video']);

  await dragCard(page, 0, 3);
  await expect(page.getByTestId('order-bar')).toBeVisible();
  await page.getByTestId('nav-events').click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('actions-page')).toBeVisible();
  await page.getByTestId('nav-events').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('events-page')).toBeVisible();
  expect(await storedNames(page)).toEqual(['Photo simple', 'Collage', 'Animation', 'Video']);
});

test('a frame is chosen from the dropdown of userdata images, or typed as a path', async ({ page }) => {
  await unlockConsole(page, '/admin/actions/1');
  await page.getByTestId('file-select-frame').click();
  await expect(page.getByTestId('file-options-frame').getByTestId('file-option').first()).toBeVisible();
  await page.screenshot({ path: 'test-screens/action-frame-dropdown.png' });
  // With the frame off, choosing a file turns it on: the photos get the frame chosen.
  await page.getByTestId('field-frame.enabled').uncheck();
  await page.locator('[data-testid="file-option"][data-path$="pixabay-poster-2871536_1920.png"]').click();
  await expect(page.getByTestId('field-frame.enabled')).toBeChecked();
  await expect(page.getByTestId('frame-state')).toHaveCount(0);
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  expect((await stored(page))[0]?.frame).toEqual({ enabled: true, file: 'userdata/demoassets/frames/pixabay-poster-2871536_1920.png' });
  // The next save's notice must be its own, not this one still on screen.
  await page.getByTestId('notice').getByRole('button').click();

  await page.getByTestId('file-free-frame').fill('userdata/demoassets/frames/frame_image_photobooth-app.png');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  expect((await stored(page))[0]?.frame?.file).toBe('userdata/demoassets/frames/frame_image_photobooth-app.png');
  await page.getByTestId('notice').getByRole('button').click();

  await page.getByTestId('file-free-frame').fill('userdata/nowhere/missing.png');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toHaveText(/Action 1\s— Cadre\s: ce fichier n’existe pas dans les fichiers de la borne\./);
  await page.screenshot({ path: 'test-screens/action-frame-missing.png' });
  expect((await stored(page))[0]?.frame?.file).toBe('userdata/demoassets/frames/frame_image_photobooth-app.png');

  // Turned off with its file kept: the form says in words that the photos will not have it.
  await page.getByTestId('notice').getByRole('button').click();
  await page.getByTestId('file-free-frame').fill('userdata/demoassets/frames/frame_image_photobooth-app.png');
  await page.getByTestId('field-frame.enabled').uncheck();
  await expect(page.getByTestId('frame-state')).toHaveText('Cadre désactivé : il n’apparaîtra pas sur les photos.');
});

test('an emptied countdown is refused in French words, and the notice goes once a save succeeds', async ({ page }) => {
  await unlockConsole(page, '/admin/actions/1');
  await expect(page.getByTestId('editor-title')).toContainText('Action 1');
  await page.getByTestId('field-general.countdown').fill('');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toHaveText(/Compte à rebours\s: saisissez un nombre\./);
  await expect(page.getByTestId('notice')).not.toContainText('Invalid');
  await page.getByTestId('field-general.countdown').fill('3');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
});

test('presets: save the list, change it, restore it after a confirmation, delete it', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await page.getByTestId('preset-name').fill('Mariage');
  await page.getByTestId('preset-description').fill('Les quatre actions d’origine');
  await page.getByTestId('preset-save').click();
  await expect(page.getByTestId('preset-Mariage')).toContainText('4 actions');

  await page.getByTestId('action-card-3').getByTestId('action-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(cardNames(page)).toHaveText(['Photo simple', 'Collage', 'Animation']);

  await page.getByTestId('preset-Mariage').getByTestId('preset-restore').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Restaurer « Mariage » ?');
  await page.screenshot({ path: 'test-screens/actions-preset-confirm.png' });
  await page.getByTestId('confirm-ok').click();
  await expect(cardNames(page)).toHaveText(['Photo simple', 'Collage', 'Animation', 'Video']);
  expect(await storedNames(page)).toEqual(['Photo simple', 'Collage', 'Animation', 'Video']);

  await page.getByTestId('preset-Mariage').getByTestId('preset-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('preset-Mariage')).toBeHidden();
  const presets = await (await page.request.get('/api/admin/actions/presets')).json();
  expect(presets).toEqual({ presets: [] });
});

test('an animation’s frames: add one, change a duration, save', async ({ page }) => {
  // Actions are numbered from 1 in addresses: the third is the animation.
  await unlockConsole(page, '/admin/actions/3');
  const frames = page.getByTestId('field-processing.frames');
  await expect(frames).toBeVisible();
  await page.getByTestId('frame-add').click();
  await page.getByTestId('frame-duration-0').fill('800');
  await frames.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/action-animation-frames.png', fullPage: true });
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('notice')).toContainText('Action enregistrée');
  expect((await stored(page))[2]?.processing.frames).toEqual([800, 2000, 2000]);
});

test('the booth’s real button order is shown beside the list, explained, and a drag across kinds says it changes nothing there', async ({
  page,
}) => {
  await unlockConsole(page, '/admin/actions');
  const boothOrder = page.getByTestId('booth-order-title');
  await expect(page.getByTestId('booth-order-explain')).toContainText('La borne regroupe ses boutons par type');
  const before = await boothOrder.allTextContents();
  expect(before.length).toBeGreaterThan(1);

  const handle = page.getByTestId('action-card-3').getByTestId('drag-handle');
  const target = page.getByTestId('action-card-0');
  const a = (await handle.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + ((b.y + 8 - (a.y + a.height / 2)) * i) / 12);
  await expect(page.getByTestId('drag-hint')).toHaveText(/ne change pas l’ordre des boutons sur la borne/);
  await page.screenshot({ path: 'test-screens/actions-drag-hint.png' });
  await page.mouse.up();
  await expect(page.getByTestId('drag-hint')).toHaveCount(0);
  await expect(cardNames(page).first()).toHaveText('Video');
  expect(await boothOrder.allTextContents()).toEqual(before);
});
