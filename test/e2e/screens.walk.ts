import { expect, type Locator, type Page } from '@playwright/test';
import { cutWords, layoutProblems, smallTargets, textProblems, unreachable, type Viewport } from './screens.helpers.js';

/**
 * The steps the walks of the booth's screens share (`screens.spec.ts`, `screens-states.spec.ts`):
 * the screens, the on-screen keyboard driven by finger, and one screen's checks.
 */

/** The sizes booths really have: the official 7" display, 7" HDMI panels, the portrait Touch Display 2, 10" panels. */
export const SCREENS: (Viewport & { name: string })[] = [
  { name: '800x480', width: 800, height: 480 },
  { name: '1024x600', width: 1024, height: 600 },
  { name: '720x1280', width: 720, height: 1280 },
  { name: '1280x800', width: 1280, height: 800 },
];

/** Every field a person types into, as the keyboard serves them. */
export const FIELDS =
  'input:is([type="text"],[type="number"],[type="url"],[type="search"],[type="email"],[type="tel"],[type="password"],:not([type])):not([disabled]):not([readonly]):not([data-keyboard="off"]), textarea:not([disabled])';

export const keyboard = (page: Page) => page.getByTestId('on-screen-keyboard');
export const key = (page: Page, button: string) => keyboard(page).locator(`[data-skbtn="${button}"]`);

export async function closeKeyboard(page: Page): Promise<void> {
  if (await keyboard(page).isVisible()) await key(page, '{done}').tap();
  await expect(keyboard(page)).toHaveCount(0);
}

/** Whether `inner` lies wholly above the keyboard's top edge, and inside the screen. */
export async function aboveKeyboard(page: Page, inner: Locator): Promise<boolean> {
  const box = await inner.boundingBox();
  const board = await keyboard(page).boundingBox();
  return box !== null && board !== null && box.y >= 0 && box.y + box.height <= board.y + 0.5;
}

/** The first and the last field of the page, tapped: each opens the keyboard and lies above it. */
export async function fieldsAboveKeyboard(page: Page, where: string): Promise<void> {
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

/** Whether two boxes on the screen share any pixel. */
export async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** One screen as a finger meets it: sizes, reach, targets, whole words, words as a French operator writes them. */
export async function checkScreen(page: Page, where: string, screen: Viewport): Promise<void> {
  expect(await layoutProblems(page, screen), `${where}: nothing wider than the screen`).toEqual([]);
  expect(await unreachable(page), `${where}: every field and primary button under a finger`).toEqual([]);
  expect(await smallTargets(page), `${where}: every control at least 44 × 44 px`).toEqual([]);
  expect(await cutWords(page), `${where}: no word cut`).toEqual([]);
  expect(await textProblems(page), `${where}: words as a French operator writes them`).toEqual([]);
}
