import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN, hasTouch: true });
// Every field of every page, tapped one by one, on a shared two-core machine.
test.setTimeout(90_000);

const keyboard = (page: Page) => page.getByTestId('on-screen-keyboard');
const key = (page: Page, button: string) => keyboard(page).locator(`[data-skbtn="${button}"]`);

/** Every field the on-screen keyboard types into, visible and enabled, on the page as it is now. */
const FIELDS =
  'input:is([type="text"],[type="number"],[type="url"],[type="search"],[type="email"],[type="tel"],:not([type])):not([disabled]):not([readonly]), textarea:not([disabled])';

async function closeKeyboard(page: Page): Promise<void> {
  if (await keyboard(page).isVisible()) await key(page, '{done}').tap();
  await expect(keyboard(page)).toHaveCount(0);
}

/** Taps each field in turn, as the operator does, and checks it sits above the keyboard it opened. */
async function everyFieldAboveTheKeyboard(page: Page, scope: Locator, where: string): Promise<number> {
  const fields = scope.locator(FIELDS);
  const count = await fields.count();
  let checked = 0;
  for (let i = 0; i < count; i++) {
    const field = fields.nth(i);
    if (!(await field.isVisible())) continue;
    await closeKeyboard(page);
    await field.tap();
    await expect(keyboard(page), `${where}: field ${i} opens the keyboard`).toBeVisible();
    await expect
      .poll(
        async () => {
          const f = await field.boundingBox();
          const k = await keyboard(page).boundingBox();
          return f !== null && k !== null && f.y >= 0 && f.y + f.height <= k.y;
        },
        { message: `${where}: field ${i} (${await field.getAttribute('data-testid')}) lies above the keyboard` },
      )
      .toBe(true);
    checked++;
  }
  await closeKeyboard(page);
  return checked;
}

test.beforeEach(async ({ page }) => {
  // The test browser has a mouse; the booth does not. Force the keyboard on as the booth would have it.
  await page.addInitScript(() => localStorage.setItem('boothdeck.keyboard', 'on'));
});

test('on every console page, the focused field lies above the on-screen keyboard', async ({ page }) => {
  await unlockConsole(page);
  const pages: [string, string][] = [
    ['/admin/actions', 'actions-page'],
    ['/admin/actions/1', 'action-editor'],
    ['/admin/events', 'events-page'],
    ['/admin/gallery', 'admin-gallery'],
    ['/admin/print', 'print-page'],
    ['/admin/hardware', 'hardware-page'],
    ['/admin/dashboard', 'dashboard-page'],
  ];
  let total = 0;
  for (const [path, testId] of pages) {
    await page.goto(path);
    await expect(page.getByTestId(testId)).toBeVisible();
    // Lazy parts (the presets list, the printers) settle before the fields are counted.
    await page.waitForLoadState('networkidle');
    total += await everyFieldAboveTheKeyboard(page, page.locator('main'), path);
  }
  expect(total).toBeGreaterThanOrEqual(18);
});

test('the preset name and description can be typed in with the keyboard open', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await page.getByTestId('preset-name').tap();
  await key(page, 'f').tap();
  await key(page, '{accents}').first().tap();
  await key(page, 'ê').tap();
  // After an accent the letters come back by themselves.
  await key(page, 't').tap();
  await key(page, 'e').tap();
  await expect(page.getByTestId('preset-name')).toHaveValue('fête');
  await page.getByTestId('preset-description').tap();
  await expect(keyboard(page)).toBeVisible();
  const f = await page.getByTestId('preset-description').boundingBox();
  const k = await keyboard(page).boundingBox();
  expect(f && k && f.y + f.height <= k.y).toBe(true);
  await page.screenshot({ path: 'test-screens/keyboard-presets.png' });
});

test('the new-action dialog keeps its name field above the keyboard', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  await page.getByTestId('action-new').tap();
  const dialog = page.locator('.backdrop');
  expect(await everyFieldAboveTheKeyboard(page, dialog, 'new action')).toBe(1);
});

test('a number field gets a keypad, and its value is typed and kept', async ({ page }) => {
  await unlockConsole(page, '/admin/actions/1');
  const countdown = page.getByTestId('field-general.countdown');
  await countdown.tap();
  await expect(key(page, 'a')).toHaveCount(0);
  // The prefilled value is replaced by the first key, as a selected text would be.
  await key(page, '3').tap();
  await expect(countdown).toHaveValue('3');
  for (const button of ['{decimal}', '5']) await key(page, button).tap();
  await expect(countdown).toHaveValue('3.5');
  await page.screenshot({ path: 'test-screens/keyboard-number-pad.png' });
  await key(page, '{done}').tap();
  await expect(page.getByTestId('editor-save')).toBeEnabled();
});

test('a hardware number typed on the keypad is applied when the keypad closes, as a real keyboard’s edit', async ({ page }) => {
  await unlockConsole(page, '/admin/hardware');
  const hold = page.getByTestId('hw-flash-hold');
  await hold.tap();
  for (const button of ['{bksp}', '{bksp}', '{bksp}', '{bksp}', '{bksp}', '3', '5', '0']) await key(page, button).tap();
  await key(page, '{done}').tap();
  await expect(page.getByTestId('notice')).toContainText('Réglage appliqué');
  await page.reload();
  await expect(page.getByTestId('hw-flash-hold')).toHaveValue('350');
});
