import { expect, type Page } from '@playwright/test';
import { ADMIN_PIN } from './fixtures.js';
import type { TestService } from '../support/service.js';

export async function typePin(page: Page, pin: string): Promise<void> {
  for (const digit of pin) await page.getByTestId(`pin-key-${digit}`).click();
}

/** Opens the console and unlocks it with the keypad, as the operator does. */
export async function unlockConsole(page: Page, path = '/admin'): Promise<void> {
  await page.goto(path);
  await typePin(page, ADMIN_PIN);
  await page.getByTestId('pin-submit').click();
  await page.getByTestId('nav-lock').waitFor();
}

export const PHONE = { width: 390, height: 844 } as const;
export const BOOTH_SCREEN = { width: 1280, height: 800 } as const;

/** The photo tiles of the grid on the page. */
export const tiles = (page: Page) => page.getByTestId('photo-tile');

/** Scrolls down as a guest does until nothing more comes, then checks each of `count` photos shows once. */
export async function scrollToEnd(page: Page, count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 3000);
        return tiles(page).count();
      },
      { timeout: 15_000 },
    )
    .toBe(count);
  const ids = await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-photo-id')));
  expect(new Set(ids).size).toBe(count);
}

/**
 * Makes "Mariage de Léa" the current event of a service its worker shares with other spec files:
 * created the first time, made current again when another file created it first.
 */
export function currentWedding(service: TestService): void {
  const { current_slug: current, events } = service.services.events.list();
  if (current === 'mariage-de-lea') return;
  if (events.some((e) => e.slug === 'mariage-de-lea')) service.services.events.reopen('mariage-de-lea');
  else service.services.events.create({ name: 'Mariage de Léa' });
}

/** Chooses `day` (`YYYY-MM-DD`) in the console's date picker behind the field `testId`, as a finger would (a click: the pages with a mouse use it too). */
export async function pickDay(page: Page, testId: string, day: string): Promise<void> {
  await page.getByTestId(testId).click();
  const picker = page.getByTestId('date-picker');
  await expect(picker).toBeVisible();
  const month = day.slice(0, 7);
  for (let step = 0; step < 60; step++) {
    const shown = (await picker.getAttribute('data-month')) ?? '';
    if (shown === month) break;
    await picker.getByTestId(shown < month ? 'date-next' : 'date-prev').click();
  }
  await picker.getByTestId(`date-day-${day}`).click();
  await expect(picker).toHaveCount(0);
}
