import type { Directive } from 'vue';

/** How far beyond the visible part of the page an image starts loading: one screen. */
const AHEAD = '100% 0px';

let observer: IntersectionObserver | undefined;
const wanted = new WeakMap<Element, string>();

function load(img: HTMLImageElement): void {
  const src = wanted.get(img);
  if (src !== undefined && img.getAttribute('src') !== src) img.src = src;
  observer?.unobserve(img);
}

function shared(): IntersectionObserver | undefined {
  if (typeof IntersectionObserver === 'undefined') return undefined;
  observer ??= new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && load(e.target as HTMLImageElement)), {
    rootMargin: AHEAD,
  });
  return observer;
}

/**
 * `v-lazy-src="url"`: the image is fetched once it comes within a screen of the view. The
 * browser's own loading="lazy" starts several screens ahead, which on a phone's first screen
 * sends twice as many thumbnail requests as there are tiles to draw.
 */
export const vLazySrc: Directive<HTMLImageElement, string> = {
  mounted(img, { value }) {
    wanted.set(img, value);
    const o = shared();
    if (o) o.observe(img);
    else load(img);
  },
  updated(img, { value, oldValue }) {
    if (value === oldValue) return;
    wanted.set(img, value);
    if (img.hasAttribute('src')) img.src = value;
  },
  beforeUnmount(img) {
    observer?.unobserve(img);
    wanted.delete(img);
  },
};
