import type { Page } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN, hasTouch: true });
// Eight pages each, on a shared two-core machine.
test.setTimeout(90_000);

const PAGES: [string, string][] = [
  ['/admin', 'home'],
  ['/admin/actions', 'actions'],
  ['/admin/actions/1', 'action-editor'],
  ['/admin/events', 'events'],
  ['/admin/gallery', 'gallery'],
  ['/admin/print', 'print'],
  ['/admin/hardware', 'hardware'],
  ['/admin/dashboard', 'maintenance'],
];

/** Command output, system paths, codes and the English of the log: never in what the operator reads. */
const RAW = /exit code|systemctl|\/var\/|Failed to|Capture app stream|Dashboard: |Photo index|Open file limit|command_failed/;

async function visibleWords(page: Page): Promise<string> {
  return page.locator('body').innerText();
}

test('every console page, looked at on the booth screen, reads as sentences', async ({ page, service }) => {
  service.services.events.create({ name: 'Mariage de Léa & Tom' });
  for (let i = 0; i < 3; i++) await service.simulator!.capture(`photo ${i}`);
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);
  await unlockConsole(page);
  for (const [path, name] of PAGES) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `test-screens/tour-${name}.png` });
    expect(await visibleWords(page), path).not.toMatch(RAW);
  }
});

test('with a refused reboot and the capture app down, no page shows raw output', async ({ page, service }) => {
  service.system.respond('systemctl', { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found (/var/run/dbus)' });
  await unlockConsole(page, '/admin/dashboard');
  await page.getByTestId('dash-reboot').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('dash-result')).toContainText('La borne n’a pas pu redémarrer');
  await service.simulator!.stop();
  for (const [path, name] of PAGES) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    if (name === 'home') await expect(page.getByTestId('home-capture-state')).toHaveText('Injoignable', { timeout: 10_000 });
    await page.screenshot({ path: `test-screens/tour-down-${name}.png` });
    expect(await visibleWords(page), path).not.toMatch(RAW);
  }
});

test('in English too, every console page reads as sentences', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('boothdeck.locale', 'en'));
  await unlockConsole(page);
  for (const [path, name] of PAGES) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `test-screens/tour-en-${name}.png` });
    expect(await visibleWords(page), path).not.toMatch(RAW);
  }
  await expect(page.getByTestId('dash-logs')).toContainText('Photo list updated.');
});
