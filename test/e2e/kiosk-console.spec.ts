import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

/** Stands in for the kiosk's preload: records the verbs the console calls. */
async function asKiosk(page: Page, boothScreen: boolean): Promise<void> {
  await page.addInitScript((hosted: boolean) => {
    const calls: string[] = [];
    Object.assign(window, {
      kioskCalls: calls,
      boothdeck: Object.freeze({
        getInfo: () => Promise.resolve({ version: 'test', kiosk: true, boothScreen: hosted }),
        reload: () => Promise.resolve(),
        relaunch: () => Promise.resolve(),
        showBoothScreen: () => {
          calls.push('showBoothScreen');
          return Promise.resolve();
        },
      }),
    });
  }, boothScreen);
}
const kioskCalls = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { kioskCalls: string[] }).kioskCalls);

test('the simulator is named by a permanent badge, on the keypad and in the console', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByTestId('simulator-badge')).toHaveText('Simulateur');
  await page.screenshot({ path: 'test-screens/kiosk-keypad-simulator.png' });
  await unlockConsole(page);
  await expect(page.getByTestId('simulator-badge')).toBeVisible();
  await page.screenshot({ path: 'test-screens/kiosk-console-simulator.png' });
});

test('in the kiosk, the keypad offers the way back to the booth screen, and locking hands the screen back', async ({ page }) => {
  await asKiosk(page, true);
  await page.goto('/admin');
  await expect(page.getByTestId('booth-screen')).toHaveText('Revenir à l’écran de la borne');
  await page.screenshot({ path: 'test-screens/kiosk-keypad-back-to-booth.png' });
  await page.getByTestId('booth-screen').click();
  expect(await kioskCalls(page)).toEqual(['showBoothScreen']);
  await unlockConsole(page); // a new page load: the recorder starts again
  expect(await kioskCalls(page)).toEqual([]);
  await page.getByTestId('nav-lock').click();
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await expect.poll(() => kioskCalls(page)).toEqual(['showBoothScreen']);
});

test('without a hosted capture screen (browser, simulator) there is no way-back button', async ({ page }) => {
  await asKiosk(page, false);
  await page.goto('/admin');
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await expect(page.getByTestId('booth-screen')).toHaveCount(0);
});
