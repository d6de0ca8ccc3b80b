import type { Page } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { ADMIN_PIN } from './fixtures.js';
import { BOOTH_SCREEN, typePin, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN, hasTouch: true });

const key = (page: Page, button: string) => page.getByTestId('on-screen-keyboard').locator(`[data-skbtn="${button}"]`);

async function typeOnScreen(page: Page, text: string): Promise<void> {
  const accents = new Set([...'éèêëàâäùûüÉÈÊÀÂÇçîïôœŒæ’«»']);
  for (const char of text) {
    if (char === ' ') await key(page, '{space}').tap();
    else if (accents.has(char)) {
      await key(page, '{accents}').first().tap();
      await key(page, char).tap();
    } else if (char !== char.toLowerCase()) {
      await key(page, '{shift}').first().tap();
      await key(page, char).tap();
    } else await key(page, char).tap();
  }
}

test('the on-screen French keyboard types an event name with accents', async ({ page }) => {
  // The test browser has a mouse; the booth does not. Force the keyboard on as the booth would have it.
  await page.addInitScript(() => localStorage.setItem('boothdeck.keyboard', 'on'));
  await unlockConsole(page, '/admin/events');
  await page.getByTestId('event-name').tap();
  await expect(page.getByTestId('on-screen-keyboard')).toBeVisible();
  await typeOnScreen(page, 'Fête à Noël');
  await expect(page.getByTestId('event-name')).toHaveValue('Fête à Noël');
  await expect(page.getByTestId('event-name')).toBeFocused();
  await page.screenshot({ path: 'test-screens/on-screen-keyboard.png' });
  await key(page, '{done}').tap();
  await expect(page.getByTestId('on-screen-keyboard')).toHaveCount(0);
  await page.getByTestId('event-create').tap();
  await expect(page.getByTestId('events-page')).toContainText('Fête à Noël');
});

test('the idle lock keeps an unsaved edit: after unlocking, the draft is still there', async ({ page }) => {
  await page.clock.install();
  await unlockConsole(page, '/admin/actions/1');
  await page.getByTestId('field-general.name').fill('Brouillon du soir');
  await page.clock.runFor(5 * 60_000 + 1000);
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await typePin(page, ADMIN_PIN);
  await page.getByTestId('pin-submit').click();
  await expect(page.getByTestId('field-general.name')).toHaveValue('Brouillon du soir');
  await expect(page.getByTestId('editor-save')).toBeEnabled();
});
