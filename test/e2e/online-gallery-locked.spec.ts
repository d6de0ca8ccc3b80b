import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, unlockConsole } from './helpers.js';

const PASSWORD = 'Lumières 2026';

test('a protected gallery asks for its password, refuses a wrong one in French and opens with the right one', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala Privé' });
  const sim = service.simulator;
  if (!sim) throw new Error('the simulator is needed');
  await sim.capture('prive 1');
  await sim.capture('prive 2');
  await sim.capture('prive 3', new Date(), 'video');
  await expect.poll(() => service.services.photoRepository.count(), { timeout: 15_000 }).toBe(3);

  // The renter sets the password in the console before anything is online.
  await page.setViewportSize(BOOTH_SCREEN);
  await unlockConsole(page, '/admin/events');
  const row = page.getByTestId('publish-gala-prive');
  await row.getByTestId('publish-lock-input').fill(PASSWORD);
  await row.getByTestId('publish-lock-save').click();
  await expect(row.getByTestId('publish-lock-state')).toHaveText('défini');

  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-locked-'));
  await service.services.publishing.service.update({
    destination: { type: 'local', path: root },
    booth_name: 'booth',
    public_base_url: 'https://photos.example.com/galeries',
    enabled: true,
  });
  await expect.poll(() => service.services.publishing.service.overview().events[0]?.state, { timeout: 30_000 }).toBe('online');
  const server = await startStaticServer(root);
  try {
    const token = readdirSync(path.join(root, 'booth'))[0] ?? '';
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url) && !req.url().startsWith('blob:')) foreign.push(req.url());
    });
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/booth/${token}/`);
    await expect(page.getByTestId('unlock-form')).toBeVisible();
    await expect(page.getByText('Gala Privé')).toHaveCount(0);
    await page.screenshot({ path: 'test-screens/online-locked-prompt.png' });

    await page.getByTestId('unlock-password').fill('lumières 2026');
    await page.getByTestId('unlock-button').click();
    await expect(page.getByTestId('unlock-error')).toHaveText('Ce mot de passe n’ouvre pas la galerie. Vérifiez-le et réessayez.', {
      timeout: 15_000,
    });
    await expect(page.getByTestId('photo-tile')).toHaveCount(0);
    await page.screenshot({ path: 'test-screens/online-locked-wrong.png' });

    await page.getByTestId('unlock-password').fill(PASSWORD);
    await page.getByTestId('unlock-button').click();
    await expect(page.getByTestId('gallery-title')).toHaveText('Gala Privé', { timeout: 15_000 });
    await expect(page.getByTestId('gallery-meta')).toContainText('3 photos');
    const tiles = page.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(3);
    await expect
      .poll(() => tiles.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)))
      .toBe(true);
    await page.screenshot({ path: 'test-screens/online-locked-gallery.png' });

    await tiles
      .filter({ hasNot: page.locator('.badge') })
      .first()
      .click();
    const box = page.getByTestId('lightbox');
    await expect(box).toBeVisible();
    await expect.poll(() => box.getByTestId('lightbox-media').evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const download = page.waitForEvent('download');
    await box.getByTestId('lightbox-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Gala-Prive_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.jpg$/);
    expect([...readFileSync(await file.path()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await page.keyboard.press('Escape');
    await tiles.filter({ hasText: 'Vidéo' }).click();
    await expect.poll(() => box.locator('video').evaluate((el) => (el as HTMLVideoElement).src)).toMatch(/^blob:/);
    await page.keyboard.press('Escape');

    // A guest's own photo link: the prompt, then that very photo.
    const pages = readdirSync(path.join(root, 'booth', token, 'p'));
    await page.goto(`${server.url}/booth/${token}/p/${pages[0] ?? ''}`);
    await expect(page.getByTestId('unlock-form')).toBeVisible();
    await page.getByTestId('unlock-password').fill(PASSWORD);
    await page.getByTestId('unlock-button').click();
    await expect(page.getByTestId('lightbox')).toBeVisible({ timeout: 15_000 });
    expect(foreign).toEqual([]);
  } finally {
    await server.close();
  }
});
