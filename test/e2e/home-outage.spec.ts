import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { createFakeHardware } from '../../native/hardware.js';
import { loadConfig } from '../../server/config.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { startService, type ServiceHandle } from '../../server/service.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { ADMIN_PIN } from './fixtures.js';
import { unlockConsole } from './helpers.js';

const SCREEN = { width: 800, height: 480 };
const UNKNOWN = 'Inconnu pour l’instant';

/**
 * The home screen while Boothdeck itself is down, on the booth's 7" screen: the cards no longer
 * claim their last state, and once Boothdeck is back they show the booth as it is now, including
 * what changed during the cut, without a tap.
 */
test('while Boothdeck is down the home cards say “inconnu”, and read the booth again when it is back', async ({ browser }) => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bd-home-outage-'));
  const start = (port: string): Promise<ServiceHandle> =>
    startService(
      loadConfig({ BOOTHDECK_PORT: port, BOOTHDECK_HOST: '127.0.0.1', BOOTHDECK_DATA_DIR: dataDir, BOOTHDECK_ADMIN_PIN: ADMIN_PIN }),
      {
        system: new FakeSystem(),
        hardware: createFakeHardware(),
        log: createRecordingLogger(),
        printer: new FakePrinter(),
        simulatorTimeScale: 0.01,
      },
    );
  let service = await start('0');
  const port = new URL(service.localUrl).port;
  service.services.events.create({ name: 'Mariage de Léa' });
  const context = await browser.newContext({ baseURL: service.localUrl, viewport: SCREEN, hasTouch: true, locale: 'fr-FR' });
  const page = await context.newPage();
  const cards = {
    event: page.getByTestId('home-event').locator('.name'),
    capture: page.getByTestId('home-capture-state'),
    printer: page.getByTestId('printer-glance-state'),
    disk: page.getByTestId('home-photos-left'),
    hardware: page.getByTestId('home-hardware-state'),
    guests: page.getByTestId('home-guests'),
  };
  try {
    await unlockConsole(page);
    await expect(cards.event).toHaveText('Mariage de Léa');
    await expect(cards.capture).toHaveText('Connectée');
    await expect(cards.printer).not.toHaveText(UNKNOWN);
    await expect(cards.printer).not.toHaveText('État en cours de lecture…');
    await expect(cards.disk).toContainText(/\d/);

    await service.stop();
    for (const [name, card] of Object.entries(cards))
      await expect(card, `${name}: no last state while Boothdeck is down`).toHaveText(UNKNOWN, { timeout: 10_000 });
    await expect(page.getByTestId('printer-glance-queue')).toHaveCount(0);
    await expect(page.getByTestId('connection-banner')).toBeVisible();
    await page.screenshot({ path: 'test-screens/home-outage-800x480.png' });

    // Meanwhile the booth moves on: another run of Boothdeck on the same data makes a new event current.
    const meanwhile = await start('0');
    meanwhile.services.events.create({ name: 'Anniversaire de Paul' });
    await meanwhile.stop();

    service = await start(port);
    // No tap: the cards read the booth again as the console's stream comes back.
    await expect(cards.event).toHaveText('Anniversaire de Paul', { timeout: 20_000 });
    await expect(cards.capture).toHaveText('Connectée');
    await expect(cards.printer).not.toHaveText(UNKNOWN);
    await expect(cards.disk).toContainText(/\d/);
    await expect(page.getByTestId('printer-glance-queue')).toBeVisible();
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
    await page.screenshot({ path: 'test-screens/home-back-800x480.png' });
  } finally {
    await context.close();
    await service.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
