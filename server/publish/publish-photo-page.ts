import type { MediaKind } from '../contract/photos.contract.js';
import { escapeHtml as esc } from '../core/util/html.js';
import { documentHead } from './publish-page.js';

export interface PhotoPage {
  eventName: string;
  language: 'fr' | 'en';
  /** Names relative to the event's folder (the page sits in `p/`). */
  media: string;
  /** What the page shows: the preview of a still photo, the file itself otherwise. */
  shown: string;
  thumb: string;
  kind: MediaKind;
  downloadName: string;
}

const TEXT = {
  fr: { download: 'Télécharger', gallery: 'Toutes les photos de l’événement', photo: 'Photo', video: 'Vidéo', animation: 'Animation' },
  en: { download: 'Download', gallery: 'All the photos of the event', photo: 'Photo', video: 'Video', animation: 'Animation' },
} as const;

const STYLE = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}body{margin:0;min-height:100vh;display:flex;flex-direction:column;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#111;color:#f4f4f4}
header{padding:16px}h1{margin:0;font-size:1.25rem;line-height:1.2;overflow-wrap:anywhere}
main{flex:1;display:flex;align-items:center;justify-content:center;padding:0 8px;min-height:0}
.m{display:block;max-width:100%;max-height:calc(100vh - 190px);object-fit:contain;border-radius:4px;background:#222}
nav{display:flex;flex-direction:column;gap:10px;padding:16px}
.btn{font:inherit;font-weight:600;display:flex;align-items:center;justify-content:center;min-height:48px;border-radius:24px;text-decoration:none}
.dl{background:#f4f4f4;color:#111}.all{background:rgba(255,255,255,.14);color:#fff}`;

const CSP = `default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`;

/**
 * One photo's own page, the link a guest gets for their photo: the photo, its download, and the
 * event's gallery one tap away. No script at all; nothing from another site; not indexed.
 */
export function renderPhotoPage(page: PhotoPage): string {
  const t = TEXT[page.language];
  const label = page.kind === 'video' ? t.video : page.kind === 'animation' ? t.animation : t.photo;
  const media = `../${page.media}`;
  const shown =
    page.kind === 'video'
      ? `<video class="m" src="${esc(media)}" poster="../${esc(page.thumb)}" controls playsinline preload="metadata" data-testid="photo-media"></video>`
      : `<img class="m" src="../${esc(page.shown)}" alt="${esc(label)}" data-testid="photo-media">`;
  return `${documentHead(page.language, CSP, page.eventName, STYLE)}
<body>
<header><h1 data-testid="photo-title">${esc(page.eventName)}</h1></header>
<main>${shown}</main>
<nav><a class="btn dl" href="${esc(media)}" download="${esc(page.downloadName)}" data-testid="photo-download">${esc(t.download)}</a>
<a class="btn all" href="../" data-testid="photo-gallery">${esc(t.gallery)}</a></nav>
</body>
</html>
`;
}
