import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStaticServer } from '../support/static-server.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, unlockConsole } from './helpers.js';
import { smallTargets } from './screens.helpers.js';

const PASSWORD = 'Lumières du soir sur la Loire 2026';

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
  // "Remplacer" and "Retirer la protection": a finger's size.
  expect(await smallTargets(page, '[data-testid="publish-gala-prive"]')).toEqual([]);

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

    // « Tout télécharger »: the sealed ZIP, opened in the browser and saved as a plain ZIP.
    const zip = page.waitForEvent('download');
    await page.getByTestId('gallery-zip').click();
    const zipFile = await zip;
    expect(zipFile.suggestedFilename()).toBe('Gala-Prive.zip');
    expect(
      readFileSync(await zipFile.path())
        .subarray(0, 2)
        .toString('latin1'),
    ).toBe('PK');

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
    expect(file.suggestedFilename()).toMatch(/^Gala-Prive_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}(-\d+)?\.jpg$/);
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

test('the published page wears the welcome line, the logo and the colours; the fleet index lists the event', async ({ page, service }) => {
  const sharp = (await import('sharp')).default;
  service.services.events.create({ name: 'Soirée <Lumière>', welcome: 'Bienvenue à tous, & merci d’être là <3' });
  const sim = service.simulator;
  if (!sim) throw new Error('the simulator is needed');
  await sim.capture('soiree 1');
  await sim.capture('soiree 2');
  await expect.poll(() => service.services.photoRepository.count(), { timeout: 15_000 }).toBe(2);
  const logo = await sharp({ create: { width: 240, height: 80, channels: 4, background: '#8e44ad' } })
    .png()
    .toBuffer();
  await service.services.publishing.service.setLogo({ data: logo.toString('base64') });
  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-brand-'));
  await service.services.publishing.service.update({
    destination: { type: 'local', path: root },
    booth_name: 'booth',
    public_base_url: 'https://photos.example.com/galeries',
    colors: { background: '#fbf3e4', text: '#3a2a1a', accent: '#8e44ad' },
    company_index: 'FleetIndexKey_01234567',
    enabled: true,
  });
  await expect.poll(() => service.services.publishing.service.overview().events[0]?.state, { timeout: 30_000 }).toBe('online');
  const server = await startStaticServer(root);
  try {
    const token = readdirSync(path.join(root, 'booth'))[0] ?? '';
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/booth/${token}/`);
    await expect(page.getByTestId('gallery-title')).toHaveText('Soirée <Lumière>');
    await expect(page.getByTestId('gallery-welcome')).toHaveText('Bienvenue à tous, & merci d’être là <3');
    await expect.poll(() => page.getByTestId('gallery-logo').evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(240);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(251, 243, 228)');
    await expect(page.getByTestId('gallery-zip')).toHaveText(/^Tout télécharger \(2 photos, [\d,]+ Mo\)$/);
    await expect
      .poll(() =>
        page
          .getByTestId('photo-tile')
          .locator('img')
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
    await page.screenshot({ path: 'test-screens/online-branded-page.png' });

    // The fleet's index is written at the end of the pass that put the event online.
    await expect
      .poll(() => existsSync(path.join(root, 'boothdeck-index-FleetIndexKey_01234567', 'index.html')), { timeout: 15_000 })
      .toBe(true);
    await page.goto(`${server.url}/boothdeck-index-FleetIndexKey_01234567/`);
    const listed = page.getByTestId('company-event');
    await expect(listed).toHaveText(['Soirée <Lumière>']);
    await listed.click();
    await expect(page.getByTestId('gallery-title')).toHaveText('Soirée <Lumière>');
  } finally {
    await server.close();
  }
});
