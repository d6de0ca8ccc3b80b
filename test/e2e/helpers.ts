import type { Page } from '@playwright/test';
import { ADMIN_PIN } from './fixtures.js';

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
