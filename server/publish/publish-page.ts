import { createHash } from 'node:crypto';
import type { MediaKind } from '../contract/photos.contract.js';
import { escapeHtml as esc } from '../core/util/html.js';
import { LIGHTBOX_SCRIPT } from './publish-page.script.js';
import type { PublishColors } from '../contract/publish.contract.js';
import { brandStyle } from './publish-brand.js';

export interface PagePhoto {
  /** Names relative to the page. */
  media: string;
  /** A still photo's 1600 px picture for the lightbox; absent: the lightbox shows the file itself. */
  preview?: string;
  thumb: string;
  kind: MediaKind;
  /** The name a download is saved under. */
  downloadName: string;
  /** The thumbnail's width over its height: the tile keeps it. Absent for rows sent before: a square. */
  ratio?: number;
}

export interface EventPage {
  eventName: string;
  /** The event's date, already written in the page's language. */
  dateLabel: string;
  language: 'fr' | 'en';
  photos: readonly PagePhoto[];
  /** The day the gallery leaves the remote, already written in the page's language; null: no end. */
  expiresLabel?: string | null;
  /** "Tout télécharger": the ZIP's name beside the page, its label, and the name it is saved under. */
  zip?: { href: string; label: string; as: string } | null;
  /** The event's welcome line for guests. */
  welcome?: string | null;
  /** The logo's name beside the page, and the settings' colours. */
  logo?: string | null;
  colors?: PublishColors | null;
}

export const TEXT = {
  fr: {
    photos: (n: number) => (n <= 1 ? `${n} photo` : `${n.toLocaleString('fr-FR')} photos`),
    empty: 'Les photos arrivent bientôt.',
    download: 'Télécharger',
    close: 'Fermer',
    previous: 'Photo précédente',
    next: 'Photo suivante',
    video: 'Vidéo',
    animation: 'Animation',
    photo: 'Photo',
    footer: 'Galerie privée : seules les personnes qui ont le lien la trouvent.',
    expires: (day: string) => `Cette galerie sera retirée le ${day} : téléchargez vos photos avant.`,
    zip: (n: number, size: string) => `Tout télécharger (${n <= 1 ? `${n} photo` : `${n.toLocaleString('fr-FR')} photos`}, ${size})`,
  },
  en: {
    photos: (n: number) => (n === 1 ? '1 photo' : `${n.toLocaleString('en-GB')} photos`),
    empty: 'The photos are coming soon.',
    download: 'Download',
    close: 'Close',
    previous: 'Previous photo',
    next: 'Next photo',
    video: 'Video',
    animation: 'Animation',
    photo: 'Photo',
    footer: 'Private gallery: only people who have the link can find it.',
    expires: (day: string) => `This gallery will be taken down on ${day}: download your photos before then.`,
    zip: (n: number, size: string) => `Download all (${n === 1 ? '1 photo' : `${n.toLocaleString('en-GB')} photos`}, ${size})`,
  },
} as const;

/** Tiles that fill a phone's first screen load at once; the rest as they are scrolled to. */
const EAGER_TILES = 12;

/** A tile's proportions are kept between these (a panorama or a strip would be a sliver). */
export const tileRatio = (width: number | null, height: number | null): number | undefined =>
  width === null || height === null || width <= 0 || height <= 0
    ? undefined
    : Math.round(Math.min(4, Math.max(0.25, width / height)) * 1000) / 1000;

/**
 * Tiles of a row share their height and keep their photo's proportions (no photo is cropped).
 * The rows' height follows the event's usual proportion so that a tile of it is about 114 px
 * wide whatever the camera's orientation: three landscape or three portrait photos a row on a phone.
 */
export function rowHeight(ratios: readonly (number | undefined)[]): number {
  const known = ratios.filter((r): r is number => r !== undefined).sort((a, b) => a - b);
  const usual = known.length === 0 ? 1 : (known[Math.floor(known.length / 2)] as number);
  return Math.round(114 / usual);
}

export const STYLE = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#111;color:#f4f4f4}
header{padding:20px 16px 12px}h1{margin:0;font-size:1.5rem;line-height:1.2;overflow-wrap:anywhere}.meta{margin-top:4px;color:#bbb;font-size:.95rem}
main{padding:0 4px 24px}.grid{--h:114px;list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px}.grid::after{content:"";flex:1000 1 0}
.grid li{--r:1;flex:var(--r) 1 calc(var(--r) * var(--h));min-width:0}
.t{position:relative;display:block;color:#fff;aspect-ratio:var(--r);background:#222;overflow:hidden;border-radius:4px}.t img{width:100%;height:100%;object-fit:cover;display:block}
.badge{position:absolute;left:6px;bottom:6px;padding:2px 8px;border-radius:10px;background:rgba(0,0,0,.7);color:#fff;font-size:.75rem;font-weight:600}
.zip{margin-top:12px}.welcome{margin:8px 0 0;color:#ddd;overflow-wrap:anywhere}.empty{padding:32px 16px;color:#bbb}.expires{margin:0;padding:4px 16px;color:#f0c36a;font-size:.9rem}footer{padding:8px 16px 28px;color:#888;font-size:.8rem}
dialog{padding:0;border:0;width:100vw;height:100vh;max-width:none;max-height:none;background:#000;color:#fff}dialog::backdrop{background:#000}
#lb-stage{position:absolute;inset:56px 0 64px;display:flex;align-items:center;justify-content:center}
.lb-media{max-width:100%;max-height:100%;object-fit:contain;background-size:contain;background-position:center;background-repeat:no-repeat}
.bar{position:absolute;left:0;right:0;display:flex;align-items:center;justify-content:space-between;gap:8px;padding:8px 12px}.top{top:0}.bottom{bottom:0}
button,.btn{font:inherit;color:#fff;background:rgba(255,255,255,.14);border:0;border-radius:22px;min-width:44px;min-height:44px;padding:0 16px;display:inline-flex;align-items:center;justify-content:center;text-decoration:none;cursor:pointer}
.btn{background:#f4f4f4;color:#111;font-weight:600}`;

/** The page allows its one inline script by hash: nothing injected into it could run. */
const SCRIPT_HASH = createHash('sha256').update(LIGHTBOX_SCRIPT).digest('base64');
const CSP = `default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; base-uri 'none'; form-action 'none'`;

/**
 * The event's page as it is published: one self-contained HTML file, the tiles drawn into it (a
 * phone shows the first screen before any script runs), a lightbox, downloads of the full files.
 * Nothing is loaded from anywhere else, and search engines are asked to stay away.
 */
/** The head every published page shares: never indexed, no referrer, its own policy and style. */
export function documentHead(language: string, csp: string, title: string, style: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow, noarchive">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${esc(title)}</title>
<style>${style}</style>
</head>`;
}

export function renderEventPage(page: EventPage): string {
  const t = TEXT[page.language];
  const tiles = page.photos
    .map((p, i) => {
      const label = p.kind === 'video' ? t.video : p.kind === 'animation' ? t.animation : t.photo;
      const badge = p.kind === 'video' || p.kind === 'animation' ? `<span class="badge">${esc(label)}</span>` : '';
      const loading = i < EAGER_TILES ? '' : ' loading="lazy"';
      const ratio = p.ratio === undefined ? '' : ` style="--r:${p.ratio}"`;
      const [w, h] =
        p.ratio === undefined ? [480, 480] : p.ratio >= 1 ? [480, Math.round(480 / p.ratio)] : [Math.round(480 * p.ratio), 480];
      return (
        `<li${ratio}><a class="t" href="${esc(p.media)}" data-k="${p.kind}"${p.preview ? ` data-p="${esc(p.preview)}"` : ''} data-name="${esc(p.downloadName)}" data-testid="photo-tile">` +
        `<img src="${esc(p.thumb)}" alt="${esc(label)} ${i + 1}" width="${w}" height="${h}" decoding="async"${loading}>${badge}</a></li>`
      );
    })
    .join('\n');
  const body =
    page.photos.length === 0
      ? `<p class="empty" data-testid="gallery-empty">${esc(t.empty)}</p>`
      : `<ul class="grid" style="--h:${rowHeight(page.photos.map((p) => p.ratio))}px">\n${tiles}\n</ul>`;
  const logo = page.logo ? `<img class="logo" src="${esc(page.logo)}" alt="" data-testid="gallery-logo">` : '';
  const welcome = page.welcome ? `<p class="welcome" data-testid="gallery-welcome">${esc(page.welcome)}</p>` : '';
  return `${documentHead(page.language, CSP, page.eventName, `${STYLE}\n${brandStyle(page.colors ?? null)}`)}
<body>
<header>${logo}<h1 data-testid="gallery-title">${esc(page.eventName)}</h1><div class="meta" data-testid="gallery-meta">${esc(page.dateLabel)} · ${esc(t.photos(page.photos.length))}</div>${welcome}${
    page.zip
      ? `\n<a class="btn zip" href="${esc(page.zip.href)}" download="${esc(page.zip.as)}" data-testid="gallery-zip">${esc(page.zip.label)}</a>`
      : ''
  }</header>
<main>
${body}
</main>
${page.expiresLabel ? `<p class="expires" data-testid="gallery-expires">${esc(t.expires(page.expiresLabel))}</p>\n` : ''}<footer>${esc(t.footer)}</footer>
<dialog id="lb" data-testid="lightbox" aria-label="${esc(page.eventName)}">
<div class="bar top"><span id="lb-pos" data-testid="lightbox-position"></span><button type="button" id="lb-close" aria-label="${esc(t.close)}">✕</button></div>
<div id="lb-stage"></div>
<div class="bar bottom"><button type="button" id="lb-prev" aria-label="${esc(t.previous)}">‹</button><a id="lb-dl" class="btn" href="#" download data-testid="lightbox-download">${esc(t.download)}</a><button type="button" id="lb-next" aria-label="${esc(t.next)}">›</button></div>
</dialog>
<script>${LIGHTBOX_SCRIPT}</script>
</body>
</html>
`;
}

/** A plain list of a booth's events online, for the rental company (kept wherever it likes). */
export function renderCompanyIndex(
  boothName: string,
  language: 'fr' | 'en',
  events: readonly { name: string; dateLabel: string; url: string; photos: number }[],
): string {
  const t = TEXT[language];
  const title = language === 'fr' ? `Événements en ligne — ${boothName}` : `Events online — ${boothName}`;
  const rows = events
    .map(
      (e) =>
        `<li><a href="${esc(e.url)}">${esc(e.name)}</a> <span class="meta">${esc(e.dateLabel)} · ${esc(t.photos(e.photos))}</span></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:24px;color:#111}li{margin:6px 0}.meta{color:#666}</style></head>
<body><h1>${esc(title)}</h1><ul>
${rows}
</ul></body></html>
`;
}
