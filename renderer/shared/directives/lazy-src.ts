import type { Directive } from 'vue';

/** How far beyond the visible part of the page an image starts loading: one screen. */
const AHEAD = '100% 0px';

const FIRST_SCREEN_WAIT_MS = 1500;

const wanted = new WeakMap<Element, string>();
/** Images a page drew before its app mounted: the app's own copies take them at once. */
const alreadyShown = new Set<string>();
const mounted = new Set<HTMLImageElement>();
let onScreen: IntersectionObserver | undefined;
let ahead: IntersectionObserver | undefined;
/** Images on the first screen still loading; the screen ahead waits for them (few connections). */
let firstScreenPending = 0;
let firstScreenDone = false;
const drawnWaiters: (() => void)[] = [];

function load(img: HTMLImageElement): void {
  const src = wanted.get(img);
  onScreen?.unobserve(img);
  ahead?.unobserve(img);
  if (src === undefined || img.getAttribute('src') === src) return;
  if (!firstScreenDone) {
    // An image taken away before it loads must not hold the rest back for ever.
    if (firstScreenPending === 0) setTimeout(startAhead, FIRST_SCREEN_WAIT_MS);
    firstScreenPending++;
    const settled = (): void => {
      if (--firstScreenPending === 0) startAhead();
    };
    img.addEventListener('load', settled, { once: true });
    img.addEventListener('error', settled, { once: true });
  }
  img.src = src;
}

function startAhead(): void {
  if (firstScreenDone) return;
  firstScreenDone = true;
  drawnWaiters.splice(0).forEach((resolve) => resolve());
  ahead = new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && load(e.target as HTMLImageElement)), {
    rootMargin: AHEAD,
  });
  mounted.forEach((img) => !img.hasAttribute('src') && ahead?.observe(img));
}

/**
 * Resolves once the first screen's images have loaded, or after `maxMs` whatever happens (a
 * screen of tiles without images never loads any): what can wait for that should.
 */
export function firstScreenDrawn(maxMs = FIRST_SCREEN_WAIT_MS): Promise<void> {
  if (firstScreenDone) return Promise.resolve();
  return new Promise((resolve) => {
    drawnWaiters.push(resolve);
    setTimeout(resolve, maxMs);
  });
}

/**
 * Images already on screen before the app mounted (the gallery's server-drawn first screen):
 * the tiles that replace them take their image at once, from the browser's memory, instead of
 * waiting a frame for the observer and showing empty tiles in between.
 */
export function primeLazySrc(urls: Iterable<string>): void {
  for (const url of urls) alreadyShown.add(url);
}

function observe(img: HTMLImageElement): boolean {
  if (typeof IntersectionObserver === 'undefined') return false;
  onScreen ??= new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && load(e.target as HTMLImageElement)));
  onScreen.observe(img);
  ahead?.observe(img);
  return true;
}

/**
 * `v-lazy-src="url"`: the image is fetched once it is on screen or, after the first screen has
 * drawn, within a screen of it. The browser's own loading="lazy" starts several screens ahead,
 * which on a phone sends more than twice as many thumbnail requests as there are tiles to draw,
 * all competing for the same few connections as the ones on screen.
 */
export const vLazySrc: Directive<HTMLImageElement, string> = {
  mounted(img, { value }) {
    wanted.set(img, value);
    mounted.add(img);
    if (alreadyShown.delete(value) || !observe(img)) load(img);
  },
  updated(img, { value, oldValue }) {
    if (value === oldValue) return;
    wanted.set(img, value);
    if (img.hasAttribute('src')) img.src = value;
  },
  beforeUnmount(img) {
    onScreen?.unobserve(img);
    ahead?.unobserve(img);
    mounted.delete(img);
    wanted.delete(img);
  },
};
