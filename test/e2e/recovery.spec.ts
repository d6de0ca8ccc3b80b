import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '../../server/capture/simulator/simulator.server.js';
import { loadConfig } from '../../server/config.js';
import { startService } from '../../server/service.js';
import { createFakeHardware } from '../../native/hardware.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, typePin, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('capture app down: plain words on reads, then the page reloads by itself when it is back', async ({ page, service }) => {
  const sim = service.simulator!;
  const port = Number(new URL(sim.url).port);
  await sim.stop();
  await unlockConsole(page, '/admin/actions');
  await expect(page.getByTestId('actions-error')).toHaveText('L’application de capture est injoignable pour le moment.');
  await expect(page.getByTestId('connection-banner')).toContainText('L’application de capture est injoignable');
  await expect(page.getByTestId('connection-retry')).toBeVisible();
  await page.screenshot({ path: 'test-screens/capture-down.png' });

  let back: SimulatorHandle | undefined;
  try {
    back = await startSimulator({ dataDir: sim.dataDir, port, host: '127.0.0.1', timeScale: 0.01 });
    // No click: the console notices the capture app is back and reloads what it could not read.
    await expect(page.getByTestId('action-list').getByTestId('action-name').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('actions-error')).toHaveCount(0);
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  } finally {
    await back?.stop();
  }
});

test('the booth’s keypad counts down the growing wait after wrong PINs', async ({ page }) => {
  await page.goto('/admin');
  for (const wait of [1, 2, 4]) {
    await expect(page.getByTestId('pin-wait')).toHaveCount(0, { timeout: (wait + 2) * 1000 });
    await typePin(page, '0000');
    await page.getByTestId('pin-submit').click();
    await expect(page.getByTestId('pin-error')).toHaveText('Code PIN incorrect');
    await expect(page.getByTestId('pin-wait')).toHaveText(`Nouvel essai possible dans ${wait} s`);
    await expect(page.getByTestId('pin-key-1')).toBeDisabled();
  }
  await page.screenshot({ path: 'test-screens/pin-wait.png' });
  // The four seconds count down on the keypad itself.
  await expect(page.getByTestId('pin-wait')).toHaveText('Nouvel essai possible dans 3 s');
  await expect(page.getByTestId('pin-wait')).toHaveText('Nouvel essai possible dans 2 s');
  await expect(page.getByTestId('pin-wait')).toHaveCount(0, { timeout: 5000 });
  await expect(page.getByTestId('pin-key-1')).toBeEnabled();
});

test('a guest sees “hors ligne” while Boothdeck is down, and the page resumes by itself', async ({ browser }) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bd-recovery-'));
  const start = async (port: string) =>
    startService(
      loadConfig({ BOOTHDECK_PORT: port, BOOTHDECK_HOST: '127.0.0.1', BOOTHDECK_DATA_DIR: dataDir, BOOTHDECK_ADMIN_PIN: '2468' }),
      {
        system: new FakeSystem(),
        hardware: createFakeHardware(),
        log: createRecordingLogger(),
        simulatorTimeScale: 0.01,
      },
    );
  let first = await start('0');
  const port = new URL(first.localUrl).port;
  const page = await browser.newPage({ viewport: PHONE });
  try {
    await page.goto(first.localUrl + '/');
    await expect(page.getByTestId('gallery-live')).toBeVisible();
    await first.stop();
    await expect(page.getByTestId('gallery-offline')).toHaveText('Hors ligne');
    await expect(page.getByTestId('gallery-live')).toHaveCount(0);
    await page.screenshot({ path: 'test-screens/gallery-offline.png' });
    first = await start(port);
    await expect(page.getByTestId('gallery-live')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('gallery-offline')).toHaveCount(0);
  } finally {
    await page.close();
    await first.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
