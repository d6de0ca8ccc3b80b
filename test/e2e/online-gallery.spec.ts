import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestService } from '../support/service.js';
import { startStaticServer } from '../support/static-server.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, pickDay, unlockConsole } from './helpers.js';
import { smallTargets } from './screens.helpers.js';

/** An event of three (a photo, a video, an animation), published to a folder; answers the folder. */
async function publishedEvent(service: TestService): Promise<string> {
  service.services.events.create({ name: 'Gala des Lumières' });
  const sim = service.simulator;
  if (!sim) throw new Error('the simulator is needed');
  await sim.capture('gala 1');
  await sim.capture('gala 2', new Date(), 'video');
  await sim.capture('gala 3', new Date(), 'animation');
  await expect.poll(() => service.services.photoRepository.count(), { timeout: 15_000 }).toBe(3);
  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-published-'));
  await service.services.publishing.service.update({
    destination: { type: 'local', path: root },
    booth_name: 'booth',
    public_base_url: 'https://photos.example.com/galeries',
    enabled: true,
  });
  await expect.poll(() => service.services.publishing.service.overview().events[0]?.state, { timeout: 20_000 }).toBe('online');
  return root;
}

test('the events page shows the event online, its address and progress, and the remote passes its test', async ({ page, service }) => {
  await publishedEvent(service);
  await page.setViewportSize(BOOTH_SCREEN);
  await unlockConsole(page, '/admin/events');
  const row = page.getByTestId('publish-gala-des-lumieres');
  await expect(row.getByTestId('publish-state')).toHaveText('En ligne');
  await expect(row.getByTestId('publish-progress')).toHaveText('3 / 3 photos en ligne');
  await expect(row.getByTestId('publish-checked')).toHaveText(/^Vérifié sur la destination à \d{2}:\d{2}\.$/);
  await row.getByTestId('publish-qr').click();
  await expect(row.getByTestId('publish-qr-image')).toBeVisible();
  // "Copier l'adresse", "Code QR", the expiry, "Protéger", the company index: a finger's size.
  expect(await smallTargets(page, '[data-testid="online-gallery"]')).toEqual([]);
  const day = new Date(Date.now() + 30 * 86_400_000);
  const iso = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  await pickDay(page, 'publish-expiry', iso);
  await expect(page.getByText('Date de retrait enregistrée')).toBeVisible();
  await expect.poll(() => service.services.publishing.service.overview().events[0]?.expires_on).toBe(iso);
  await expect(row.getByTestId('publish-url')).toHaveText(/^https:\/\/photos\.example\.com\/galeries\/booth\/[A-Za-z0-9_-]{22}\/$/);
  await expect(page.getByTestId('publish-status')).toHaveText('À jour.');
  await page.getByTestId('publish-test').click();
  await expect(page.getByTestId('publish-test-result')).toContainText('La destination fonctionne');
  await page.getByTestId('online-gallery').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/online-console.png' });
  await page.setViewportSize(PHONE);
  await page.getByTestId('publish-events').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/online-console-phone.png' });

  await row.getByTestId('withdraw-button').click();
  await page.getByRole('button', { name: 'Retirer' }).last().click();
  await expect(row.getByTestId('publish-state')).toHaveText(/Retiré|Retrait en cours/);
  await expect(row.getByTestId('publish-button')).toBeVisible({ timeout: 10_000 });
});

test('guests see “Retrouvez vos photos en ligne” with the address and its QR code', async ({ page, service }) => {
  await publishedEvent(service);
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const link = page.getByTestId('online-link');
  await expect(link).toContainText('Retrouvez vos photos en ligne');
  await expect(link.getByTestId('online-url')).toHaveText(/^https:\/\/photos\.example\.com\/galeries\/booth\//);
  await link.getByRole('button').click();
  await expect(link.getByTestId('online-qr')).toBeVisible();
  await page.screenshot({ path: 'test-screens/online-guest-link.png' });

  // Over an open photo too: the guest who came for one photo learns where to find them all.
  await page.getByTestId('photo-tile').first().click();
  const inLightbox = page.getByTestId('lightbox-online-link');
  // Once the photo is online, the lightbox offers its own page (and its QR code), not only the event's.
  await expect(inLightbox.getByTestId('online-url')).toHaveText(
    /^https:\/\/photos\.example\.com\/galeries\/booth\/[A-Za-z0-9_-]{22}\/p\/[^/]+\.html$/,
  );
  await expect(inLightbox.getByTestId('online-title')).toHaveText('Cette photo en ligne');
  await page.screenshot({ path: 'test-screens/online-guest-lightbox.png' });
  await page.getByTestId('lightbox-close').click();
  await expect(inLightbox).toHaveCount(0);
});

test('a gallery open on a phone shows the address as soon as the event is online, and drops it once withdrawn, without asking', async ({
  page,
  service,
}) => {
  service.services.events.create({ name: 'Gala des Lumières' });
  await service.simulator?.capture('gala 1');
  await expect.poll(() => service.services.photoRepository.count(), { timeout: 15_000 }).toBe(1);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/gallery/online') asked.push(r.url());
  });
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await expect(page.getByTestId('gallery-live')).toBeVisible();
  await expect.poll(() => asked.length).toBe(1);
  await expect(page.getByTestId('online-link')).toHaveCount(0);

  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-published-'));
  await service.services.publishing.service.update({
    destination: { type: 'local', path: root },
    booth_name: 'booth',
    public_base_url: 'https://photos.example.com/galeries',
    enabled: true,
  });
  const link = page.getByTestId('online-link');
  await expect(link.getByTestId('online-url')).toHaveText(/^https:\/\/photos\.example\.com\/galeries\/booth\//, { timeout: 20_000 });
  await page.setViewportSize({ width: 360, height: 640 });
  await page.screenshot({ path: 'test-screens/online-guest-live-phone.png' });
  await page.setViewportSize({ width: 800, height: 480 });
  await page.screenshot({ path: 'test-screens/online-guest-live-booth.png' });

  service.services.publishing.service.withdraw('gala-des-lumieres');
  await expect(link).toHaveCount(0, { timeout: 20_000 });
  // The card came and went on the live stream: the page asked for the address once, at its start.
  expect(asked).toHaveLength(1);
});

test('the published page works from a plain static server: first screen, lightbox, download, nothing from elsewhere', async ({
  page,
  service,
}) => {
  const root = await publishedEvent(service);
  const server = await startStaticServer(root);
  try {
    const token = readdirSync(path.join(root, 'booth'))[0] ?? '';
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url)) foreign.push(req.url());
    });
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/booth/${token}/`);
    await expect(page.getByTestId('gallery-title')).toHaveText('Gala des Lumières');
    await expect(page.getByTestId('gallery-meta')).toContainText('3 photos');
    const tiles = page.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(3);
    await expect
      .poll(() => tiles.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)))
      .toBe(true);
    await page.screenshot({ path: 'test-screens/online-published.png' });
    // Each tile keeps its photo's proportions: nothing of a photo is cropped away.
    const shapes = await tiles.evaluateAll((links) =>
      links.map((a) => {
        const img = a.querySelector('img') as HTMLImageElement;
        const box = a.getBoundingClientRect();
        return { tile: box.width / box.height, image: img.naturalWidth / img.naturalHeight };
      }),
    );
    for (const shape of shapes) expect(Math.abs(shape.tile - shape.image) / shape.image).toBeLessThan(0.03);
    for (const [name, size] of [
      ['360', { width: 360, height: 640 }],
      ['800', { width: 800, height: 480 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `test-screens/online-published-${name}.png` });
    }
    await page.setViewportSize(PHONE);

    const still = tiles.filter({ hasNot: page.locator('.badge') }).first();
    await still.click();
    const box = page.getByTestId('lightbox');
    await expect(box).toBeVisible();
    await expect.poll(() => box.getByTestId('lightbox-media').evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // The lightbox shows the 1600 px preview; the download below is the full file.
    await expect(box.getByTestId('lightbox-media')).toHaveAttribute('src', /^previews\/.+\.webp$/);
    await page.screenshot({ path: 'test-screens/online-published-lightbox.png' });
    const download = page.waitForEvent('download');
    await box.getByTestId('lightbox-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Gala-des-Lumieres_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.jpg$/);
    const href = await box.getByTestId('lightbox-download').getAttribute('href');
    expect(readFileSync(await file.path())).toEqual(readFileSync(path.join(root, 'booth', token, href ?? '')));

    await page.keyboard.press('Escape');
    await tiles.filter({ hasText: 'Vidéo' }).click();
    await expect(box.locator('video')).toHaveAttribute('src', /^media\/.+\.mp4$/);
    expect(foreign).toEqual([]);
  } finally {
    await server.close();
  }
});

test('each photo has its own page: the photo, its download, the event one tap away', async ({ page, service }) => {
  const root = await publishedEvent(service);
  const server = await startStaticServer(root);
  try {
    const token = readdirSync(path.join(root, 'booth'))[0] ?? '';
    const pages = readdirSync(path.join(root, 'booth', token, 'p'));
    expect(pages).toHaveLength(3);
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url)) foreign.push(req.url());
    });
    await page.setViewportSize(PHONE);
    const still = pages.find((name) => readFileSync(path.join(root, 'booth', token, 'p', name), 'utf8').includes('<img class="m"'));
    await page.goto(`${server.url}/booth/${token}/p/${still}`);
    await expect(page.getByTestId('photo-title')).toHaveText('Gala des Lumières');
    await expect.poll(() => page.getByTestId('photo-media').evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-screens/online-photo-page.png' });
    const download = page.waitForEvent('download');
    await page.getByTestId('photo-download').click();
    expect((await download).suggestedFilename()).toMatch(/^Gala-des-Lumieres_.+\.jpg$/);
    await page.getByTestId('photo-gallery').click();
    await expect(page.getByTestId('photo-tile')).toHaveCount(3);
    await page.screenshot({ path: 'test-screens/online-event-page.png' });
    expect(foreign).toEqual([]);
  } finally {
    await server.close();
  }
});
