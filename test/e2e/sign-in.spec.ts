import { startTestService } from '../support/service.js';
import { ADMIN_PIN, expect, isolatedTest, test } from './fixtures.js';
import { BOOTH_SCREEN, typePin, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('the operator unlocks the console with the keypad and sees the navigation', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await expect(page.getByText('Console verrouillée')).toBeVisible();
  await page.screenshot({ path: 'test-screens/admin-login.png' });
  await typePin(page, ADMIN_PIN);
  await page.getByTestId('pin-submit').click();
  await expect(page.getByTestId('home-page')).toBeVisible();
  for (const part of ['actions', 'events', 'gallery', 'print', 'hardware', 'dashboard']) {
    await expect(page.getByTestId(`nav-${part}`)).toBeVisible();
  }
  await expect(page.getByTestId('capture-status')).toContainText('Connectée');
  await page.screenshot({ path: 'test-screens/admin-home.png' });
});

// Its own service: the booth's wait after a wrong PIN must not slow the next test's sign-in.
isolatedTest('a wrong PIN is refused with a message and the keypad stays', async ({ page }) => {
  await page.goto('/admin');
  await typePin(page, '0000');
  await page.getByTestId('pin-submit').click();
  await expect(page.getByTestId('pin-error')).toHaveText('Code PIN incorrect');
  await expect(page.getByTestId('login-screen')).toBeVisible();
});

test('the lock button and a reload both keep the console honest', async ({ page }) => {
  await unlockConsole(page, '/admin/events');
  await expect(page.getByTestId('events-page')).toContainText('Événements');
  await page.reload();
  await expect(page.getByTestId('nav-lock')).toBeVisible();
  await page.getByTestId('nav-lock').click();
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('login-screen')).toBeVisible();
});

test('the console locks itself after five idle minutes, and not before', async ({ page }) => {
  await page.clock.install();
  await unlockConsole(page);
  await page.clock.runFor(4 * 60_000);
  await page.getByTestId('nav-events').click();
  await page.clock.runFor(4 * 60_000);
  await expect(page.getByTestId('events-page')).toBeVisible();
  await page.clock.runFor(61_000);
  await expect(page.getByTestId('login-screen')).toBeVisible();
  const status = await page.request.get('/api/admin/status');
  expect(status.status()).toBe(401);
});

test('the console speaks English on request and remembers it', async ({ page }) => {
  await page.goto('/admin');
  await page.getByTestId('pin-key-1').waitFor();
  await expect(page.getByText('Console verrouillée')).toBeVisible();
  await page.goto('/');
  await page.getByTestId('language-switch').click();
  await expect(page.getByTestId('gallery-title')).toHaveText('Photo gallery');
  await page.goto('/admin');
  await expect(page.getByText('Console locked')).toBeVisible();
});

test('first run: the booth itself chooses the PIN, twice the same, then is signed in', async ({ page }) => {
  const fresh = await startTestService();
  try {
    await page.goto(`${fresh.localUrl}/admin`);
    await expect(page.getByTestId('first-run-screen')).toBeVisible();
    await page.screenshot({ path: 'test-screens/admin-first-run.png' });
    await typePin(page, '1357');
    await page.getByTestId('pin-submit').click();
    await typePin(page, '1358');
    await page.getByTestId('pin-submit').click();
    await expect(page.getByTestId('pin-error')).toHaveText('Les deux codes ne correspondent pas. Recommencez.');
    await typePin(page, '1357');
    await page.getByTestId('pin-submit').click();
    await typePin(page, '1357');
    await page.getByTestId('pin-submit').click();
    await expect(page.getByTestId('home-page')).toBeVisible();
    await page.getByTestId('nav-lock').click();
    await typePin(page, '1357');
    await page.getByTestId('pin-submit').click();
    await expect(page.getByTestId('home-page')).toBeVisible();
  } finally {
    await fresh.close();
  }
});
