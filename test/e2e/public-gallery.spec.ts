import type { Page } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { PHONE, scrollToEnd, tiles } from './helpers.js';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** The photo the lightbox shows, once its image has loaded (before that, a swipe is ignored). */
const shownId = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('.viewer-canvas img');
    if (!img || !img.complete || img.naturalWidth === 0) return null;
    return /photos\/([0-9a-f-]{36})\/preview/.exec(img.getAttribute('src') ?? '')?.[1] ?? null;
  });

/**
 * A finger swipe from right to left across the lightbox, as real touch events. The finger rests
 * a moment before it lifts, as a hand does: a lift at full speed would start a fling, and a
 * tap during a fling only stops it.
 */
async function swipeLeft(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const y = PHONE.height / 2;
  const point = (x: number) => [{ x, y, id: 1 }];
  let timestamp = Date.now() / 1000;
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number | null, afterMs: number) => {
    timestamp += afterMs / 1000;
    return cdp.send('Input.dispatchTouchEvent', { type, touchPoints: x === null ? [] : point(x), timestamp });
  };
  await send('touchStart', 340, 0);
  for (let x = 320; x >= 40; x -= 40) await send('touchMove', x, 16);
  await send('touchMove', 40, 300);
  await send('touchEnd', null, 16);
}

test('guests see only the current event, newest first, with the print badge', async ({ page, service }) => {
  service.services.events.create({ name: 'Hier' });
  const old = await service.simulator!.capture('old');
  await expect.poll(() => service.services.photoRepository.find(old.id)).toBeDefined();
  service.services.events.create({ name: 'Mariage Léa et Tom' });
  const a = await service.simulator!.capture('a');
  const b = await service.simulator!.capture('b');
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);
  service.services.photoRepository.setPrinted(a.id, 1);

  await page.goto('/');
  await expect(page.getByTestId('gallery-title')).toHaveText('Mariage Léa et Tom');
  await expect(tiles(page)).toHaveCount(2);
  expect(await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-photo-id')))).toEqual([b.id, a.id]);
  await expect(page.locator(`[data-testid="photo-tile"][data-photo-id="${a.id}"]`).getByTestId('print-badge')).toBeVisible();
  await expect(page.locator(`[data-testid="photo-tile"][data-photo-id="${old.id}"]`)).toHaveCount(0);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: 'test-screens/public-gallery.png' });
});

test('a new photo appears live, without reloading the page', async ({ page, service }) => {
  service.services.events.create({ name: 'En direct' });
  await page.goto('/');
  await expect(page.getByTestId('gallery-live')).toBeVisible();
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
  const item = await service.simulator!.capture('live');
  await expect(page.locator(`[data-testid="photo-tile"][data-photo-id="${item.id}"]`)).toBeVisible({ timeout: 3000 });
  const second = await service.simulator!.capture('live 2');
  await expect(tiles(page).first()).toHaveAttribute('data-photo-id', second.id);
});

test('the lightbox follows swipes, arrows and keys, and downloads with the event’s name', async ({ page, service }) => {
  service.services.events.create({ name: 'Mariage Léa et Tom' });
  const items = [await service.simulator!.capture('1'), await service.simulator!.capture('2'), await service.simulator!.capture('3')];
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);
  const newestFirst = [...items].reverse().map((i) => i.id);
  await page.goto('/');
  await tiles(page).first().tap();
  await expect.poll(() => shownId(page)).toBe(newestFirst[0]);
  await page.screenshot({ path: 'test-screens/public-lightbox.png' });
  await swipeLeft(page);
  await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
  await page.locator('.viewer-toolbar .viewer-next').tap();
  await expect.poll(() => shownId(page)).toBe(newestFirst[2]);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => shownId(page)).toBe(newestFirst[1]);

  const download = page.waitForEvent('download');
  await page.locator('.viewer-toolbar .viewer-download').tap();
  expect((await download).suggestedFilename()).toMatch(/^Mariage-Lea-et-Tom_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}(-\d)?\.jpg$/);
});

test('more photos than one page: the gallery keeps loading as the guest scrolls', async ({ page, service }) => {
  service.services.events.create({ name: 'Grande fête' });
  for (let i = 0; i < 75; i++) await service.simulator!.capture(`p${i}`);
  await expect.poll(() => service.services.photoRepository.count()).toBe(75);
  await page.goto('/');
  await expect(tiles(page).first()).toBeVisible();
  // The guest keeps scrolling down until nothing more comes.
  await scrollToEnd(page, 75);
});

test('a photo arriving while a guest looks at another leaves the lightbox where it was', async ({ page, service }) => {
  service.services.events.create({ name: 'Soirée' });
  const items = [await service.simulator!.capture('1'), await service.simulator!.capture('2'), await service.simulator!.capture('3')];
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);
  await page.goto('/');
  await expect(page.getByTestId('gallery-live')).toBeVisible();
  await tiles(page).nth(1).tap();
  await expect.poll(() => shownId(page)).toBe(items[1]!.id);
  const fresh = await service.simulator!.capture('new');
  await expect(page.locator(`[data-testid="photo-tile"][data-photo-id="${fresh.id}"]`)).toHaveCount(1);
  await expect.poll(() => shownId(page)).toBe(items[1]!.id);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => shownId(page)).toBe(items[0]!.id);
});
