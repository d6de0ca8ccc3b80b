import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PHONE } from './helpers.js';

/** `npm start` as a newcomer runs it: no configuration at all, on a development checkout. */
function npmStart(): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, BOOTHDECK_PORT: '0', BOOTHDECK_HOST: '127.0.0.1' };
  for (const name of ['BOOTHDECK_CAPTURE_URL', 'BOOTHDECK_SIMULATOR_INTERVAL', 'BOOTHDECK_ADMIN_PIN', 'NODE_ENV', 'APPIMAGE'])
    delete env[name];
  env.BOOTHDECK_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-first-start-'));
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

test('a first npm start shows the product working: console address first, the PIN, the gallery with its QR code, and photos arriving', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { child, output } = npmStart();
  try {
    await expect.poll(output, { timeout: 30_000 }).toContain('Guest gallery');
    const text = output();
    // The build made before the tests is up to date: the start does not rebuild.
    expect(text).toContain('Build up to date.');
    const consoleAt = text.indexOf('Console, on this machine: http://127.0.0.1:');
    const galleryAt = text.indexOf('Guest gallery');
    expect(consoleAt).toBeGreaterThan(-1);
    expect(consoleAt).toBeLessThan(galleryAt);
    expect(text).toContain('No admin PIN yet: open this address on this machine and choose one');
    // The terminal QR code is drawn with block characters.
    expect(text.slice(galleryAt).match(/[▀▄█]/g)?.length ?? 0).toBeGreaterThan(100);
    const galleryUrl = /Guest gallery, on the booth's network: (\S+)/.exec(text)?.[1] ?? '';

    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(galleryUrl);
    await expect(page.getByTestId('gallery-title')).toHaveText('Démo');
    // The simulator takes a demo photo every few seconds, and it reaches the open page.
    await expect(page.getByTestId('photo-tile').first()).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: 'test-screens/first-start-gallery.png' });

    const consoleUrl = /Console, on this machine: (\S+)/.exec(text)?.[1] ?? '';
    await page.goto(consoleUrl);
    await expect(page.getByTestId('first-run-screen')).toBeVisible();
    await page.close();
  } finally {
    child.kill('SIGTERM');
  }
});
