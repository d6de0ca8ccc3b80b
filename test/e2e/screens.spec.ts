import type { Browser, Locator, Page } from '@playwright/test';
import { expect, fileTest as test } from './fixtures.js';
import { unlockConsole, currentWedding } from './helpers.js';
import { layoutProblems, textProblems, underFingerNow, unreachable, type Viewport } from './screens.helpers.js';

/**
 * The booth's own screens, walked by finger: every console page and dialog at the sizes booths
 * really have (the official 7" display, 7" HDMI panels, the portrait Touch Display 2, 10" panels).
 * One browser context per screen, pages visited in sequence, so the walk stays within minutes.
 */
const SCREENS: (Viewport & { name: string })[] = [
  { name: '800x480', width: 800, height: 480 },
  { name: '1024x600', width: 1024, height: 600 },
  { name: '720x1280', width: 720, height: 1280 },
  { name: '1280x800', width: 1280, height: 800 },
];

/** Each page, and the primary button of its form that must be under a finger without scrolling the page. */
const PAGES: [path: string, testId: string, shot: string, primary?: string][] = [
  ['/admin', 'home-page', 'home'],
  ['/admin/actions', 'actions-page', 'actions'],
  ['/admin/actions/1', 'action-editor', 'action-editor', 'editor-save'],
  ['/admin/events', 'events-page', 'events', 'event-create'],
  ['/admin/gallery', 'admin-gallery', 'gallery'],
  ['/admin/print', 'print-page', 'print'],
  ['/admin/hardware', 'hardware-page', 'hardware'],
  ['/admin/dashboard', 'dashboard-page', 'dashboard'],
];

const FIELDS =
  'input:is([type="text"],[type="number"],[type="url"],[type="search"],[type="email"],[type="tel"],:not([type])):not([disabled]):not([readonly]):not([data-keyboard="off"]), textarea:not([disabled])';

const keyboard = (page: Page) => page.getByTestId('on-screen-keyboard');
const key = (page: Page, button: string) => keyboard(page).locator(`[data-skbtn="${button}"]`);

async function closeKeyboard(page: Page): Promise<void> {
  if (await keyboard(page).isVisible()) await key(page, '{done}').tap();
  await expect(keyboard(page)).toHaveCount(0);
}

/** Whether `inner` lies wholly above the keyboard's top edge, and inside the screen. */
async function aboveKeyboard(page: Page, inner: Locator): Promise<boolean> {
  const box = await inner.boundingBox();
  const board = await keyboard(page).boundingBox();
  return box !== null && board !== null && box.y >= 0 && box.y + box.height <= board.y + 0.5;
}

/** The first and the last field of the page, tapped: each opens the keyboard and lies above it. */
async function fieldsAboveKeyboard(page: Page, where: string): Promise<void> {
  const fields = page.locator('main').locator(FIELDS);
  const visible: Locator[] = [];
  for (let i = 0; i < (await fields.count()); i++) if (await fields.nth(i).isVisible()) visible.push(fields.nth(i));
  const picks = visible.length > 1 ? [visible[0]!, visible[visible.length - 1]!] : visible;
  for (const field of picks) {
    await closeKeyboard(page);
    await field.scrollIntoViewIfNeeded();
    await field.tap();
    await expect(keyboard(page), `${where}: the keyboard opens`).toBeVisible();
    await expect.poll(() => aboveKeyboard(page, field), { message: `${where}: the focused field lies above the keyboard` }).toBe(true);
  }
  await closeKeyboard(page);
}

async function checkScreen(page: Page, where: string, screen: Viewport): Promise<void> {
  expect(await layoutProblems(page, screen), `${where}: nothing wider than the screen`).toEqual([]);
  expect(await unreachable(page), `${where}: every field and primary button under a finger`).toEqual([]);
  expect(await textProblems(page), `${where}: words as a French operator writes them`).toEqual([]);
}

/** The new-action dialog: typed into with the keyboard, its buttons above it, and OK keeps it. */
async function newActionDialog(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/actions');
  await page.getByTestId('action-new').tap();
  const dialog = page.getByTestId('new-action-dialog');
  await expect(dialog).toBeVisible();
  await checkScreen(page, `${screen.name} new action`, screen);
  await page.getByTestId('new-kind-collage').tap();
  const name = page.getByTestId('new-action-name');
  await name.tap();
  await expect(keyboard(page)).toBeVisible();
  await key(page, 'x').tap();
  await expect(name).toHaveValue('Nouvelle actionx');
  await expect.poll(() => aboveKeyboard(page, name), { message: `${screen.name}: the name field above the keyboard` }).toBe(true);
  const create = page.getByTestId('new-action-create');
  await expect.poll(() => aboveKeyboard(page, create), { message: `${screen.name}: "Créer" above the keyboard` }).toBe(true);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-new-action-keyboard.png` });
  // OK closes the keyboard, and only the keyboard: the dialog and what was typed stay.
  await key(page, '{done}').tap();
  await expect(keyboard(page)).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(name).toHaveValue('Nouvelle actionx');
  await expect(page.getByTestId('new-kind-collage')).toHaveClass(/selected/);
  // A tap on a dialog's button while the keyboard is open reaches that button.
  await name.tap();
  await expect(keyboard(page)).toBeVisible();
  await dialog.getByRole('button', { name: 'Annuler' }).tap();
  await expect(dialog).toHaveCount(0);
  await expect(keyboard(page)).toHaveCount(0);
}

/** The icon picker: searched with the on-screen keyboard, its "Choisir" above it, an icon chosen by finger. */
async function iconPicker(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/actions/1');
  await page.getByTestId('icon-pick').tap();
  const picker = page.getByTestId('icon-picker');
  await expect(picker).toBeVisible();
  await checkScreen(page, `${screen.name} icon picker`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-icon-picker.png` });
  const search = page.getByTestId('icon-search');
  await search.tap();
  for (const letter of 'fete') await key(page, letter).tap();
  await expect(search).toHaveValue('fete');
  await expect.poll(() => aboveKeyboard(page, search), { message: `${screen.name}: the search above the keyboard` }).toBe(true);
  const choose = page.getByTestId('icon-choose');
  await expect.poll(() => aboveKeyboard(page, choose), { message: `${screen.name}: "Choisir" above the keyboard` }).toBe(true);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-icon-picker-keyboard.png` });
  await key(page, '{done}').tap();
  await expect(picker).toBeVisible();
  await page.getByTestId('icon-celebration').tap();
  await choose.tap();
  await expect(picker).toHaveCount(0);
  await expect(page.getByTestId('icon-current')).toHaveText('Fête');
  await expect(page.getByTestId('editor-save')).toBeEnabled();
  await page.getByTestId('editor-cancel').tap();
}

async function confirmDialog(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/actions');
  await page.getByTestId('action-card-0').getByTestId('action-delete').tap();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await checkScreen(page, `${screen.name} confirm`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-confirm.png` });
  await page.getByTestId('confirm-cancel').tap();
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
}

async function archiveDialog(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/events');
  await page.getByTestId('event-name').tap();
  await key(page, 'n').tap();
  await closeKeyboard(page);
  await page.getByTestId('event-create').tap();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('Mariage de Léa');
  await checkScreen(page, `${screen.name} archive`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-archive-confirm.png` });
  await page.getByTestId('confirm-cancel').tap();
  await expect(dialog).toHaveCount(0);
}

async function galleryDialogs(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/gallery');
  await page.getByTestId('qr-show').tap();
  await expect(page.getByTestId('qr-dialog')).toBeVisible();
  await checkScreen(page, `${screen.name} qr`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-qr.png` });
  await page.keyboard.press('Escape');
  await page.getByTestId('qr-dialog').getByRole('button').last().tap();
  await expect(page.getByTestId('qr-dialog')).toHaveCount(0);
  await page.getByTestId('photo-tile').first().tap();
  await page.locator('.viewer-print').tap();
  await expect(page.getByTestId('admin-print-dialog')).toBeVisible();
  await checkScreen(page, `${screen.name} print`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-admin-print.png` });
}

async function walk(browser: Browser, baseURL: string, screen: Viewport & { name: string }): Promise<void> {
  const context = await browser.newContext({ baseURL, viewport: screen, hasTouch: true, locale: 'fr-FR' });
  const page = await context.newPage();
  // The test browser has a mouse; the booth does not. Force the keyboard on as the booth would have it.
  await page.addInitScript(() => localStorage.setItem('boothdeck.keyboard', 'on'));
  await page.goto('/admin');
  await expect(page.getByTestId('pin-submit')).toBeVisible();
  await checkScreen(page, `${screen.name} keypad`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-keypad.png` });
  await unlockConsole(page);
  // The rail: every place named, "Verrouiller" in reach without scrolling anything.
  for (const id of ['home', 'actions', 'events', 'gallery', 'print', 'hardware', 'dashboard']) {
    await expect(page.getByTestId(`nav-${id}`)).toHaveAccessibleName(/\w/);
  }
  const lock = await page.getByTestId('nav-lock').boundingBox();
  expect(lock && lock.y >= 0 && lock.y + lock.height <= screen.height && lock.x + lock.width <= screen.width).toBe(true);
  for (const [path, testId, shot, primary] of PAGES) {
    await page.goto(path);
    await expect(page.getByTestId(testId)).toBeVisible();
    // Lazy parts (the presets list, the printers) settle before the page is measured.
    await page.waitForLoadState('networkidle');
    const where = `${screen.name} ${path}`;
    await checkScreen(page, where, screen);
    // The title and its subtitle take at most a fifth of the screen's height.
    const header = await page.evaluate(() => {
      const title = document.querySelector('main h1');
      if (!title) return null;
      const last = title.nextElementSibling?.matches('p.muted') ? title.nextElementSibling : title;
      return last.getBoundingClientRect().bottom - title.getBoundingClientRect().top;
    });
    if (header !== null) expect(header, `${where}: the header's height`).toBeLessThanOrEqual(screen.height / 5);
    await page.locator('main').evaluate((el) => el.scrollTo(0, 0));
    if (primary) expect(await underFingerNow(page, primary), `${where}: the form's button without scrolling`).toBeNull();
    await page.screenshot({ path: `test-screens/screens-${screen.name}-${shot}.png` });
    await fieldsAboveKeyboard(page, where);
  }
  await newActionDialog(page, screen);
  await iconPicker(page, screen);
  await confirmDialog(page, screen);
  await archiveDialog(page, screen);
  await galleryDialogs(page, screen);
  await context.close();
}

test.describe('the console on the booth’s screens', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(120_000);

  test.beforeAll(async ({ service }) => {
    currentWedding(service);
    const before = service.services.photoRepository.count();
    for (let i = 0; i < 3; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(before + 3);
  });

  for (const screen of SCREENS) {
    test(`every page and dialog at ${screen.name}`, async ({ browser, baseURL }) => {
      await walk(browser, baseURL!, screen);
    });
  }

  test('every page in English: no lazy plural, no raw code', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, viewport: SCREENS[3], hasTouch: true, locale: 'en-US' });
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('boothdeck.locale', 'en'));
    await page.goto('/admin');
    await expect(page.getByTestId('pin-submit')).toHaveText('Unlock');
    expect(await textProblems(page, 'en'), 'keypad').toEqual([]);
    await unlockConsole(page);
    for (const [path, testId] of PAGES) {
      await page.goto(path);
      await expect(page.getByTestId(testId)).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await textProblems(page, 'en'), path).toEqual([]);
    }
    await context.close();
  });
});
