import type { Page, Route } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, scrollToEnd, tiles } from './helpers.js';

/** Page and thumbnail requests the browser makes, in order. */
function watchRequests(page: Page): { pages: URL[]; thumbs: string[]; streams: number } {
  const seen = { pages: [] as URL[], thumbs: [] as string[], streams: 0 };
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/gallery/stream') seen.streams++;
    if (url.pathname === '/api/gallery/photos') seen.pages.push(url);
    if (url.pathname.endsWith('/thumb')) seen.thumbs.push(url.pathname);
  });
  return seen;
}

/** Every tile on screen has drawn its thumbnail. */
const firstScreenDrawn = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const visible = [...document.querySelectorAll('[data-testid="photo-tile"]')].filter((t) => {
      const r = t.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    });
    const drawn = visible.every((t) => {
      const img = t.querySelector('img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    return drawn ? visible.length : 0;
  });

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('one request sized to the screen fills it, thumbnails come a screen ahead, and the gallery still pages and stays live', async ({
    page,
    service,
  }) => {
    service.services.events.create({ name: 'Grande fête' });
    for (let i = 0; i < 130; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(130);
    const seen = watchRequests(page);

    await page.goto('/');
    await expect.poll(() => firstScreenDrawn(page)).toBeGreaterThan(20);
    const onScreen = await firstScreenDrawn(page);
    // The boot script asked for the screen and the next one, before the bundle ran; no further page was
    // needed (the stream's first connection may check the top for photos taken meanwhile).
    expect(seen.pages.length).toBeGreaterThanOrEqual(1);
    expect(seen.pages.every((u) => !u.searchParams.has('cursor'))).toBe(true);
    const limit = Number(seen.pages[0]!.searchParams.get('limit'));
    expect(await page.evaluate(() => (window as unknown as { __boothdeckFirstPage?: { limit: number } }).__boothdeckFirstPage?.limit)).toBe(
      limit,
    );
    expect(limit).toBeGreaterThanOrEqual(onScreen * 2);
    expect(limit).toBeLessThanOrEqual(onScreen * 2 + 6);
    await page.waitForTimeout(500);
    // About one screen ahead, never the whole page of photos.
    expect(new Set(seen.thumbs).size).toBeLessThanOrEqual(onScreen * 2 + 6);
    await page.screenshot({ path: 'test-screens/gallery-first-screen-phone.png' });

    await scrollToEnd(page, 130);
    // Every further page is the same size; only the check for photos taken meanwhile is smaller.
    const further = seen.pages.filter((u) => u.searchParams.has('cursor'));
    expect(further.length).toBeGreaterThan(0);
    expect(further.every((u) => u.searchParams.get('limit') === String(limit))).toBe(true);

    await expect(page.getByTestId('gallery-live')).toBeVisible();
    const fresh = await service.simulator!.capture('live');
    await expect(tiles(page).first()).toHaveAttribute('data-photo-id', fresh.id);
    await page.mouse.wheel(0, -100_000);
    await expect(tiles(page).first().locator('img')).toHaveJSProperty('complete', true);
  });

  test('the live stream waits for the first screen’s thumbnails, which need every connection the phone has', async ({ page, service }) => {
    service.services.events.create({ name: 'Grande fête' });
    for (let i = 0; i < 40; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(40);
    const seen = watchRequests(page);
    const held: Route[] = [];
    let holding = true;
    await page.route('**/thumb', (route) => (holding ? void held.push(route) : route.continue()));

    await page.goto('/', { waitUntil: 'commit' });
    await expect(tiles(page)).not.toHaveCount(0);
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(seen.streams).toBe(0);
    await expect(page.getByTestId('gallery-offline')).toHaveCount(0);

    holding = false;
    await Promise.all(held.map((route) => route.continue()));
    await expect(page.getByTestId('gallery-live')).toBeVisible();
    expect(seen.streams).toBe(1);
  });
});

test.describe('at the booth screen size', () => {
  test.use({ viewport: BOOTH_SCREEN });

  test('the first request is larger, to fill the larger screen', async ({ page, service }) => {
    service.services.events.create({ name: 'Salon' });
    const seen = watchRequests(page);
    await page.goto('/');
    await expect(page.getByTestId('gallery-empty')).toBeVisible();
    expect(seen.pages.every((u) => !u.searchParams.has('cursor'))).toBe(true);
    // From 600 px up the tiles are 180 px at least: 6 columns by 6 rows at 1280×800, twice.
    expect(Number(seen.pages[0]!.searchParams.get('limit'))).toBe(72);
  });
});
