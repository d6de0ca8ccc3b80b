import type { GalleryEvent, PhotoPage, PublicPhoto } from '../contract/photos.contract.js';
import { escapeHtml } from '../core/util/html.js';
import type { GuestLanguage } from './guest-language.js';

export type GalleryFirstPage = PhotoPage<PublicPhoto> & { event: GalleryEvent | null };

/** Where the page's boot script (renderer/gallery/boot.js) reads the first page. */
const FIRST_PAGE_ELEMENT_ID = 'boothdeck-first-page';
/** The empty mount point in the built page, which the shell fills until the app mounts on it. */
const APP_MOUNT = '<div id="app"></div>';

/**
 * JSON inside a `<script>` element: no `<` may appear (a `</script>` in an event name would end
 * the element), and JSON.parse reads the escapes back as the same characters.
 */
const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const PRINT_ICON =
  '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M7 9V4h10v5M6 17H4V9h16v8h-2M7 14h10v6H7z" fill="none" stroke="currentColor" stroke-width="2"/></svg>';
const PLAY_ICON = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="M8 5v14l11-7z" fill="currentColor"/></svg>';

/**
 * Tiles whose thumbnail the page names outright, for the browser to ask for as soon as it reads
 * them: a phone's first screen (390×844) shows 27, at high priority; a 1280×800 one 36, the last
 * nine at the browser's own priority, which it raises for the ones it finds on screen (a phone
 * then asks for them last). The page's script gives the other tiles on screen theirs.
 */
const PHONE_SCREEN = 27;
const LAPTOP_SCREEN = 36;

const image = (photo: PublicPhoto, index: number): string => {
  const url = escapeHtml(photo.urls.thumb);
  if (index < PHONE_SCREEN) return `<img src="${url}" fetchpriority="high" alt="" decoding="async">`;
  if (index < LAPTOP_SCREEN) return `<img src="${url}" alt="" decoding="async">`;
  return `<img data-src="${url}" alt="" decoding="async">`;
};

/** One tile as the app's grid draws it. */
function tile(photo: PublicPhoto, index: number): string {
  const badges = [
    photo.kind === 'video' ? `<span class="pg-play" data-testid="video-badge">${PLAY_ICON}</span>` : '',
    photo.kind === 'animation' ? '<span class="pg-kind" data-testid="animation-badge">GIF</span>' : '',
    photo.printed_copies > 0 ? `<span class="pg-badge" data-testid="print-badge">${PRINT_ICON}×${photo.printed_copies}</span>` : '',
  ].join('');
  return (
    `<li><button type="button" class="pg-tile" data-testid="photo-tile" data-photo-id="${escapeHtml(photo.id)}" data-kind="${photo.kind}">` +
    `${image(photo, index)}${badges}</button></li>`
  );
}

/**
 * The gallery's first screen as plain HTML: the event's name, its welcome line and the first
 * page's tiles, with the classes of the app's own page and grid (App.vue, PhotoGrid.vue, whose
 * styles the build writes into the page), so the browser draws the photos without waiting for
 * the app's script; the app replaces it when it mounts, and nothing moves.
 */
function shell(page: GalleryFirstPage): string {
  if (!page.event || page.photos.length === 0) return '';
  const welcome = page.event.welcome ? `<p class="gp-welcome">${escapeHtml(page.event.welcome)}</p>` : '';
  return (
    '<div class="gp-page" data-shell>' +
    `<header class="gp-bar"><div class="gp-titles"><h1>${escapeHtml(page.event.name)}</h1><div class="bd-meta"></div></div>` +
    '<span class="bd-lang"></span></header>' +
    `${welcome}<main class="gp-body"><ul class="pg-grid pg-compact">${page.photos.map(tile).join('')}</ul></main></div>`
  );
}

/**
 * The built gallery page with the first page of photos in it: as data for the app, and drawn
 * as the shell. Undefined when the built page has no mount point to fill (an unexpected build).
 */
export function renderGalleryPage(template: string, page: GalleryFirstPage): string | undefined {
  const at = template.indexOf(APP_MOUNT);
  if (at < 0) return undefined;
  const data = `<script type="application/json" id="${FIRST_PAGE_ELEMENT_ID}">${scriptSafeJson(page)}</script>`;
  return `${template.slice(0, at)}<div id="app">${shell(page)}</div>${data}${template.slice(at + APP_MOUNT.length)}`;
}

/**
 * The built page in the guest's language: `lang` on its root, and `data-lang` telling the app
 * the server knew it (renderer/shared/i18n, followBrowserLanguage). Unchanged when not known.
 */
export function withLanguage(template: string, language: GuestLanguage | null): string {
  if (!language) return template;
  return template.replace(/<html lang="[a-zA-Z-]*"/, `<html lang="${language}" data-lang="${language}"`);
}
