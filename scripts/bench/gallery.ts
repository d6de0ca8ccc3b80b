import type { Browser } from '@playwright/test';
import { percentile, round } from './seed.js';

export interface FirstScreen {
  /** From the navigation's start to the frame in which every visible tile shows its thumbnail. */
  ms: number;
  visibleTiles: number;
  /** Thumbnails the page had asked for by then, and a second later (how far ahead it fetches). */
  thumbsAtFirstScreen: number;
  thumbsSettled: number;
  /** Bytes of script and style asked for before the first screen (compressed size on the wire). */
  assetBytes: number;
  apiRequestsAtFirstScreen: number;
  /**
   * When, from the navigation's start, the first page's answer and the app's script had arrived (the
   * first of each; Infinity when never asked: the page brings its first page, and loads the app's
   * script once the first screen's thumbnails are in), and the first paint.
   */
  firstPageAt: number;
  bundleAt: number;
  firstPaintAt: number;
}

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/**
 * Opens the public gallery in a fresh browser context (no cache, as a guest's first visit) and
 * waits, frame by frame, until the screen is full of tiles and each visible one has drawn its image.
 */
export async function firstScreen(browser: Browser, url: string, viewport: { width: number; height: number }): Promise<FirstScreen> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  let thumbs = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('/thumb')) thumbs++;
  });
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    () => {
      const tiles = [...document.querySelectorAll('[data-testid="photo-tile"]')];
      const last = tiles[tiles.length - 1];
      if (!last || last.getBoundingClientRect().bottom < innerHeight) return false;
      const visible = tiles.filter((t) => {
        const r = t.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
      });
      const drawn = visible.every((t) => {
        const img = t.querySelector('img');
        return img !== null && img.complete && img.naturalWidth > 0;
      });
      return drawn ? { at: performance.now(), visible: visible.length } : false;
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  const { at, visible } = (await handle.jsonValue()) as { at: number; visible: number };
  // What was asked before the first screen, from the page's own timeline: the lightbox's script and
  // the live stream's catch-up, asked once the first screen is drawn, are not part of it.
  // A string, not a function: tsx would wrap a named helper inside it with its own `__name`.
  const timeline = await page.evaluate<{
    firstPageAt: number;
    bundleAt: number;
    firstPaintAt: number;
    assetBytes: number;
    thumbsAtFirstScreen: number;
    apiRequestsAtFirstScreen: number;
  }>(`(() => {
    const resources = performance.getEntriesByType('resource');
    const before = resources.filter((r) => r.startTime < ${at});
    const assets = before.filter((r) => /\\.(js|css)$/.test(new URL(r.name).pathname));
    const end = (re) => Math.min(...resources.filter((r) => re.test(r.name)).map((r) => r.responseEnd));
    return {
      firstPageAt: end(/\\/api\\/gallery\\/photos\\?/),
      bundleAt: end(/\\/assets\\/gallery-[^/]+\\.js$/),
      firstPaintAt: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
      assetBytes: assets.reduce((sum, r) => sum + r.encodedBodySize, 0),
      thumbsAtFirstScreen: before.filter((r) => new URL(r.name).pathname.endsWith('/thumb')).length,
      apiRequestsAtFirstScreen: before.filter((r) => r.name.includes('/api/gallery/photos?')).length,
    };
  })()`);
  await page.waitForTimeout(1000);
  const result = {
    ms: at,
    visibleTiles: visible,
    thumbsSettled: thumbs,
    ...timeline,
  };
  await context.close();
  return result;
}

export const describeScreen = (s: FirstScreen): string =>
  `${round(s.ms)} ms (${s.visibleTiles} tiles visible, ${s.thumbsAtFirstScreen} thumbnails asked by then, ${s.thumbsSettled} a second later, ` +
  `${s.apiRequestsAtFirstScreen} page request(s), ${round(s.assetBytes / 1024, 1)} KB of script and style; ` +
  `first page ${Number.isFinite(s.firstPageAt) ? `in at ${round(s.firstPageAt)} ms` : 'in the page itself'}, ` +
  `app script ${Number.isFinite(s.bundleAt) ? `in at ${round(s.bundleAt)} ms` : 'not asked yet'}, first paint ${round(s.firstPaintAt)} ms)`;

/** Several fresh visits; the median, with the first run's details. */
export async function warmFirstScreen(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
  runs = 5,
): Promise<{ median: number; worst: number; sample: FirstScreen }> {
  const all: FirstScreen[] = [];
  for (let i = 0; i < runs; i++) all.push(await firstScreen(browser, url, viewport));
  const times = all.map((s) => s.ms);
  return { median: percentile(times, 50), worst: Math.max(...times), sample: all[all.length - 1] as FirstScreen };
}
