import type { Page, Route } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, scrollToEnd, tiles } from './helpers.js';

/** Page and thumbnail requests the browser makes, in order. */
function watchRequests(page: Page): { pages: URL[]; thumbs: string[]; streams: number; styles: string[] } {
  const seen = { pages: [] as URL[], thumbs: [] as string[], streams: 0, styles: [] as string[] };
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith('.css')) seen.styles.push(url.pathname);
    if (url.pathname === '/api/gallery/stream') seen.streams++;
    if (url.pathname === '/api/gallery/photos') seen.pages.push(url);
    if (url.pathname.endsWith('/thumb')) seen.thumbs.push(url.pathname);
  });
  return seen;
}

/** The live stream's check, once it opens, for photos taken since the page was made. */
const isCatchUp = (u: URL): boolean => !u.searchParams.has('cursor') && u.searchParams.get('limit') === '24';

/** Opens the gallery with the app's script held back until the returned function is called. */
async function openWithAppHeld(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/gallery-*.js', async (route) => {
    await held;
    await route.continue();
  });
  // The page's load event waits for the app's script: only its parsing is awaited.
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  return release;
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

  test('the page brings its first screen, only the thumbnails on screen are asked, and the gallery still pages and stays live', async ({
    page,
    service,
  }) => {
    // 130 captures and a scroll to the end of them: longer than most tests on two busy cores.
    test.slow();
    service.services.events.create({ name: 'Grande fête' });
    for (let i = 0; i < 130; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(130);
    const seen = watchRequests(page);

    await page.goto('/');
    await expect.poll(() => firstScreenDrawn(page)).toBeGreaterThan(20);
    const onScreen = await firstScreenDrawn(page);
    // The photos came in the page itself: the only page asked for yet is the live stream's check for
    // photos taken meanwhile, once the first screen was in.
    expect(seen.pages.every(isCatchUp)).toBe(true);
    await page.waitForTimeout(500);
    // About one screen ahead, never the whole page of photos.
    expect(new Set(seen.thumbs).size).toBeLessThanOrEqual(onScreen * 2 + 9);
    await page.screenshot({ path: 'test-screens/gallery-first-screen-phone.png' });
    // The page's own stylesheets are written into it: none is fetched, not even by the lightbox's
    // chunk, which is fetched ahead once the first screen is in (it asks only for its own).
    const inPage = await page.evaluate(() =>
      [...document.querySelectorAll('link[rel="stylesheet"][disabled]')].map((l) => new URL((l as HTMLLinkElement).href).pathname),
    );
    expect(inPage.length).toBeGreaterThan(0);
    await expect.poll(() => seen.styles.some((p) => p.includes('PhotoLightbox'))).toBe(true);
    expect(seen.styles.filter((p) => inPage.includes(p))).toEqual([]);

    await scrollToEnd(page, 130);
    // The pages after the first hold this screen and the next, as the page measured it.
    const limit = await page.evaluate(
      () => (window as unknown as { __boothdeckFirstPage?: { limit: number } }).__boothdeckFirstPage?.limit,
    );
    expect(limit).toBeGreaterThanOrEqual(onScreen * 2);
    expect(limit).toBeLessThanOrEqual(onScreen * 2 + 6);
    const further = seen.pages.filter((u) => u.searchParams.has('cursor'));
    expect(further.length).toBeGreaterThan(0);
    expect(further.every((u) => u.searchParams.get('limit') === String(limit))).toBe(true);

    await expect(page.getByTestId('gallery-live')).toBeVisible();
    const fresh = await service.simulator!.capture('live');
    await expect(tiles(page).first()).toHaveAttribute('data-photo-id', fresh.id);
    await page.mouse.wheel(0, -100_000);
    await expect(tiles(page).first().locator('img')).toHaveJSProperty('complete', true);
  });

  test('the first screen is drawn before the app runs, and nothing moves or blanks when the app takes it over', async ({
    page,
    service,
  }) => {
    service.services.events.create({ name: 'Grande fête' });
    const printed = await service.simulator!.capture('p0');
    for (let i = 1; i < 40; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(40);
    service.services.photoRepository.setPrinted(printed.id, 2);
    // The app's script is held: what shows is the page alone.
    const release = await openWithAppHeld(page);
    await expect.poll(() => firstScreenDrawn(page)).toBeGreaterThan(20);
    await expect(page.locator('[data-shell]')).toBeVisible();
    await expect(page.locator('h1')).toHaveText('Grande fête');
    await expect(page.locator(`[data-photo-id="${printed.id}"]`).getByTestId('print-badge')).toContainText('×2');
    await page.screenshot({ path: 'test-screens/gallery-shell-phone.png' });
    const layout = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="photo-tile"]')].slice(0, 30).map((t) => {
          const r = t.getBoundingClientRect();
          return `${t.getAttribute('data-photo-id')}@${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)}x${Math.round(r.height)}`;
        }),
      );
    const before = await layout();

    // Every frame from the app's start on: no visible tile may be without its drawn image.
    await page.evaluate(() => {
      const w = window as unknown as { __blankFrames: number; __frames: number };
      w.__blankFrames = 0;
      w.__frames = 0;
      const check = (): void => {
        const visible = [...document.querySelectorAll('[data-testid="photo-tile"]')].filter(
          (t) => t.getBoundingClientRect().top < innerHeight,
        );
        if (visible.some((t) => !(t.querySelector('img')?.complete && (t.querySelector('img')?.naturalWidth ?? 0) > 0))) w.__blankFrames++;
        w.__frames++;
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    release();
    await expect(page.locator('[data-shell]')).toHaveCount(0);
    await expect(page.getByTestId('gallery-title')).toHaveText('Grande fête');
    expect(await layout()).toEqual(before);
    await expect(page.getByTestId('gallery-live')).toBeVisible();
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __blankFrames: number; __frames: number };
      return { blank: w.__blankFrames, all: w.__frames };
    });
    expect(frames.all).toBeGreaterThan(0);
    expect(frames.blank).toBe(0);
  });

  test('a photo tapped before the app is there opens once it is', async ({ page, service }) => {
    service.services.events.create({ name: 'Grande fête' });
    for (let i = 0; i < 12; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(12);
    const release = await openWithAppHeld(page);
    const third = tiles(page).nth(2);
    const id = await third.getAttribute('data-photo-id');
    await expect(page.locator('[data-shell]')).toBeVisible();
    await third.tap();
    release();
    await expect
      .poll(() =>
        page.evaluate(
          () => /photos\/([0-9a-f-]{36})\/preview/.exec(document.querySelector('.viewer-canvas img')?.getAttribute('src') ?? '')?.[1],
        ),
      )
      .toBe(id);
  });

  test('the live stream waits for the first screen’s thumbnails, which need every connection the phone has', async ({ page, service }) => {
    service.services.events.create({ name: 'Grande fête' });
    for (let i = 0; i < 40; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(40);
    const seen = watchRequests(page);
    const held: Route[] = [];
    let holding = true;
    await page.route(/\/thumb(\?|$)/, (route) => (holding ? void held.push(route) : route.continue()));

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

  test('a larger screen is filled from the page, and pages on with more photos at a time', async ({ page, service }) => {
    // 120 captures and a scroll to the end of them: longer than most tests on two busy cores.
    test.slow();
    service.services.events.create({ name: 'Salon' });
    for (let i = 0; i < 120; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(120);
    const seen = watchRequests(page);
    await page.goto('/');
    // From 600 px up the tiles are 180 px at least: 6 columns by 6 rows at 1280×800.
    await expect.poll(() => firstScreenDrawn(page)).toBe(36);
    expect(seen.pages.every(isCatchUp)).toBe(true);
    await page.screenshot({ path: 'test-screens/gallery-first-screen-booth.png' });
    await scrollToEnd(page, 120);
    const further = seen.pages.filter((u) => u.searchParams.has('cursor'));
    expect(further.length).toBeGreaterThan(0);
    expect(further.every((u) => u.searchParams.get('limit') === '72')).toBe(true);
  });
});
