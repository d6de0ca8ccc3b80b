import type { Browser, Page } from '@playwright/test';
import { expect, fileTest as test } from './fixtures.js';
import { currentWedding, typePin, unlockConsole } from './helpers.js';
import { pageErrors } from './finger.js';
import { textProblems, underFingerNow, type Viewport } from './screens.helpers.js';
import { aboveKeyboard, checkScreen, closeKeyboard, fieldsAboveKeyboard, key, keyboard, overlap, SCREENS } from './screens.walk.js';

/**
 * The booth's own screens, walked by finger: every console page and dialog at the sizes booths
 * really have. One browser context per screen, pages visited in sequence, so the walk stays
 * within minutes. The states that come and go (a failed job, a restart waiting, the owner's
 * notices) are walked in screens-states.spec.ts.
 */

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

const EVENT_PIN = '1357';

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
  // The prefilled name is selected by the first tap: the first key replaces it.
  await expect
    .poll(() => name.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd]))
    .toEqual([0, 'Nouvelle action'.length]);
  await key(page, 'x').tap();
  await expect(name).toHaveValue('x');
  await expect.poll(() => aboveKeyboard(page, name), { message: `${screen.name}: the name field above the keyboard` }).toBe(true);
  const create = page.getByTestId('new-action-create');
  await expect.poll(() => aboveKeyboard(page, create), { message: `${screen.name}: "Créer" above the keyboard` }).toBe(true);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-new-action-keyboard.png` });
  // OK closes the keyboard, and only the keyboard: the dialog and what was typed stay.
  await key(page, '{done}').tap();
  await expect(keyboard(page)).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(name).toHaveValue('x');
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
  // Photos were taken minutes ago: one question names the deletion and the restart.
  await expect(page.getByTestId('confirm-dialog').getByRole('heading')).toHaveText('Supprimer l’action ?');
  await expect(page.getByTestId('confirm-points')).toContainText('redémarre l’application de capture');
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

/** Passwords by finger: the destination's and the event gallery's, typed on the keyboard, shown on demand. */
async function passwords(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/events');
  // The saved settings arrive first: a form they fill would otherwise change under the finger.
  await page.waitForLoadState('networkidle');
  const form = page.getByTestId('publish-settings');
  await form.getByTestId('publish-type').selectOption('webdav');
  const secret = form.getByTestId('publish-password-input');
  await secret.tap();
  await expect(keyboard(page), `${screen.name}: a password field opens the keyboard`).toBeVisible();
  for (const letter of 'mdp') await key(page, letter).tap();
  await expect(secret).toHaveValue('mdp');
  await expect(secret).toHaveAttribute('type', 'password');
  await expect.poll(() => aboveKeyboard(page, secret), { message: `${screen.name}: the password above the keyboard` }).toBe(true);
  // "Afficher" shows what was typed and leaves the keyboard where it is.
  const show = form.getByTestId('publish-password').getByTestId('secret-toggle');
  await show.tap();
  await expect(secret).toHaveAttribute('type', 'text');
  await expect(keyboard(page)).toBeVisible();
  await key(page, '2').tap();
  await expect(secret).toHaveValue('mdp2');
  await page.screenshot({ path: `test-screens/screens-${screen.name}-password-keyboard.png` });
  await closeKeyboard(page);
  await checkScreen(page, `${screen.name} password`, screen);
  // The event's own gallery password, from its row.
  const lock = page.getByTestId('publish-mariage-de-lea').getByTestId('publish-lock-input');
  await lock.tap();
  await expect(keyboard(page), `${screen.name}: the gallery password opens the keyboard`).toBeVisible();
  await key(page, 'a').tap();
  await expect(lock).toHaveValue('a');
  await closeKeyboard(page);
}

/** An error notice that stays: never over the keyboard or the field typed in, and a tap on it over a field reaches the field. */
async function notices(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/events');
  // The saved settings arrive first: a form they fill would otherwise change under the finger.
  await page.waitForLoadState('networkidle');
  const form = page.getByTestId('publish-settings');
  await form.getByTestId('publish-type').selectOption('webdav');
  await form.getByTestId('publish-user').fill("booth,bearer_token_command='x'");
  await form.getByTestId('publish-save').tap();
  const notice = page.getByTestId('notice');
  await expect(notice).toHaveClass(/error/);
  // Beside the bar of places, wherever it runs: never over "Verrouiller" or "Accueil".
  const bar = page.locator('nav.rail');
  await expect.poll(() => overlap(notice, bar), { message: `${screen.name}: the notice off the bar of places` }).toBe(false);
  const user = form.getByTestId('publish-user');
  await user.tap();
  await expect(keyboard(page)).toBeVisible();
  await expect.poll(() => aboveKeyboard(page, user)).toBe(true);
  await expect.poll(() => overlap(notice, user), { message: `${screen.name}: the notice off the field typed in` }).toBe(false);
  await expect.poll(() => overlap(notice, keyboard(page)), { message: `${screen.name}: the notice off the keyboard` }).toBe(false);
  await expect.poll(() => overlap(notice, bar), { message: `${screen.name}: the notice off the bar, the keyboard open` }).toBe(false);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-notice-keyboard.png` });
  await closeKeyboard(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // On the short screens, where the form runs under the notice: the field brought under the
  // notice's words, a tap there is the field's. (On a tall one the form fits above it.)
  if (screen.height >= 700) {
    await notice.getByRole('button', { name: 'Fermer' }).tap();
    return;
  }
  await expect(notice).toHaveAttribute('data-place', 'bottom');
  const field = (await user.boundingBox())!;
  const box = (await notice.boundingBox())!;
  await page.locator('main').evaluate((el, dy) => el.scrollBy(0, dy), field.y + field.height / 2 - (box.y + box.height / 2));
  const under = (await user.boundingBox())!;
  const [x, y] = [Math.max(box.x, under.x) + 24, under.y + under.height / 2];
  expect(await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('[data-testid="notice"]') !== null, [x, y])).toBe(
    true,
  );
  await page.touchscreen.tap(x, y);
  await expect(user, `${screen.name}: a tap on the notice over a field reaches the field`).toBeFocused();
  await closeKeyboard(page);
  await notice.getByRole('button', { name: 'Fermer' }).tap();
  await expect(notice).toHaveCount(0);
}

/** The date picker: finger-sized, in French, from the gallery's filter. */
async function datePicker(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/gallery');
  await page.getByTestId('filter-from').tap();
  const picker = page.getByTestId('date-picker');
  await expect(picker).toBeVisible();
  await checkScreen(page, `${screen.name} date picker`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-date-picker.png` });
  await picker.getByTestId('date-title').tap();
  await checkScreen(page, `${screen.name} date picker's months`, screen);
  const month = (await picker.getAttribute('data-month'))!;
  await picker.getByTestId(`date-month-${Number(month.slice(5))}`).tap();
  const today = new Date();
  const day = `${month}-${String(today.getDate()).padStart(2, '0')}`;
  await picker.getByTestId(`date-day-${day}`).tap();
  await expect(picker).toHaveCount(0);
  await expect(page.getByTestId('filter-from')).toHaveAttribute('data-value', day);
  await expect(page.getByTestId('filter-from')).toContainText(
    today.toLocaleDateString('fr-FR', { day: 'numeric', month: 'short' }).replace('.', ''),
  );
  await page.getByTestId('filter-clear').tap();
}

/** A frame chosen is a frame on: the checkbox follows, and the form says so in words when it is off. */
async function frameChoice(page: Page, screen: Viewport & { name: string }): Promise<void> {
  await page.goto('/admin/actions/1');
  const enabled = page.getByTestId('field-frame.enabled');
  await expect(enabled).toBeVisible();
  if (await enabled.isChecked()) await enabled.tap();
  await page.getByTestId('file-select-frame').tap();
  await page.getByTestId('file-options-frame').getByTestId('file-option').first().tap();
  await expect(enabled, `${screen.name}: choosing a frame turns it on`).toBeChecked();
  await expect(page.getByTestId('frame-state')).toHaveCount(0);
  await enabled.tap();
  await expect(page.getByTestId('frame-state')).toHaveText('Cadre désactivé : il n’apparaîtra pas sur les photos.');
  await page.getByTestId('frame-state').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-screens/screens-${screen.name}-frame-off.png` });
  await page.getByTestId('editor-cancel').tap();
}

/** The renter's console: the rail's names whole beside their locks, every control a finger's size. */
async function renter(browser: Browser, baseURL: string, screen: Viewport & { name: string }): Promise<void> {
  const context = await browser.newContext({ baseURL, viewport: screen, hasTouch: true, locale: 'fr-FR' });
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.addInitScript(() => localStorage.setItem('boothdeck.keyboard', 'on'));
  await page.goto('/admin');
  await typePin(page, EVENT_PIN);
  await page.getByTestId('pin-submit').tap();
  await expect(page.getByTestId('home-page')).toBeVisible();
  await expect(page.getByTestId('nav-actions').getByTestId('owner-lock')).toBeVisible();
  await checkScreen(page, `${screen.name} renter`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-renter.png` });
  // A locked place asks for the owner's key in place: its keypad at a finger's size.
  await page.getByTestId('nav-actions').tap();
  await expect(page.getByTestId('owner-key-dialog')).toBeVisible();
  await checkScreen(page, `${screen.name} the owner's key asked`, screen);
  await page.screenshot({ path: `test-screens/screens-${screen.name}-owner-key.png` });
  await page.getByTestId('owner-key-dialog-cancel').tap();
  await expect(page.getByTestId('owner-key-dialog')).toHaveCount(0);
  expect(errors, `${screen.name}: no error on the renter's pages`).toEqual([]);
  await context.close();
}

async function walk(browser: Browser, baseURL: string, screen: Viewport & { name: string }): Promise<void> {
  const context = await browser.newContext({ baseURL, viewport: screen, hasTouch: true, locale: 'fr-FR' });
  const page = await context.newPage();
  const errors = pageErrors(page);
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
  await passwords(page, screen);
  await notices(page, screen);
  await datePicker(page, screen);
  await frameChoice(page, screen);
  expect(errors, `${screen.name}: no uncaught error on any page`).toEqual([]);
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
    // The renter's key, for the walk with its locks.
    await service.services.auth.setEventPin('', EVENT_PIN);
  });

  test.afterAll(({ service }) => service.services.auth.clearEventPin(''));

  for (const screen of SCREENS) {
    test(`every page and dialog at ${screen.name}`, async ({ browser, baseURL }) => {
      await renter(browser, baseURL!, screen);
      await walk(browser, baseURL!, screen);
    });
  }

  test('every page in English: no lazy plural, no raw code', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, viewport: SCREENS[3], hasTouch: true, locale: 'en-US' });
    const page = await context.newPage();
    const errors = pageErrors(page);
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
    expect(errors, 'no error on any page in English').toEqual([]);
    await context.close();
  });
});
