import { createHash } from 'node:crypto';
import type { MediaKind } from '../contract/photos.contract.js';
import { escapeHtml as esc } from '../core/util/html.js';
import { sealBuffer, type EventLock } from './publish-lock.js';
import { LOCKED_SCRIPT } from './publish-locked.script.js';
import { documentHead, STYLE, TEXT } from './publish-page.js';
import type { PublishColors } from '../contract/publish.contract.js';
import { brandStyle } from './publish-brand.js';

/** One photo as the sealed list carries it: keyed names only, the rest known once the password opened the list. */
export interface SealedPhoto {
  /** The name the photo's own page and the gallery's `#` share. */
  id: string;
  m: string;
  p?: string;
  t: string;
  k: MediaKind;
  /** The file's type, for the browser to play or show it once opened. */
  x: string;
  /** The name a download is saved under. */
  n: string;
  /** The tile's proportions (width over height); absent for rows sent before: a square. */
  r?: number;
}

/** What the page shows once opened; all of it sealed with the photos' key. */
export interface SealedList {
  title: string;
  meta: string;
  welcome: string | null;
  expires: string | null;
  zip: { name: string; as: string; label: string } | null;
  /** The rows' height in pixels (see rowHeight). */
  h: number;
  photos: SealedPhoto[];
}

const LOCK_TEXT = {
  fr: {
    heading: 'Galerie protégée',
    lead: 'Entrez le mot de passe que les organisateurs vous ont donné.',
    label: 'Mot de passe',
    open: 'Ouvrir la galerie',
    opening: 'Ouverture…',
    wrong: 'Ce mot de passe n’ouvre pas la galerie. Vérifiez-le et réessayez.',
    insecure: 'Cette galerie s’ouvre seulement à une adresse https:// : ce navigateur refuse d’y déchiffrer les photos.',
    failed: 'Ce fichier n’a pas pu être chargé. Réessayez dans un instant.',
  },
  en: {
    heading: 'Protected gallery',
    lead: 'Enter the password the organisers gave you.',
    label: 'Password',
    open: 'Open the gallery',
    opening: 'Opening…',
    wrong: 'This password does not open the gallery. Check it and try again.',
    insecure: 'This gallery opens only at an https:// address: this browser refuses to decrypt the photos here.',
    failed: 'This file could not be loaded. Try again in a moment.',
  },
} as const;

const LOCK_STYLE = `[hidden]{display:none!important}.lock{max-width:420px;margin:0 auto;padding:48px 20px;display:flex;flex-direction:column;gap:12px}.lock h1{font-size:1.5rem;margin:0}.lock p{margin:0;color:#ccc}
.lock label{font-weight:600;margin-top:8px}.lock input{font:inherit;min-height:48px;padding:0 14px;border-radius:10px;border:1px solid #555;background:#1c1c1c;color:#f4f4f4}
.lock button{min-height:48px;background:#f4f4f4;color:#111;font-weight:600}.lock button:disabled{opacity:.6}#err{color:#ff9c8a;min-height:1.4em}
.busy{opacity:.6;pointer-events:none}.welcome{margin:6px 0 0;color:#ddd}`;

const SCRIPT_HASH = createHash('sha256').update(LOCKED_SCRIPT).digest('base64');
const CSP = `default-src 'none'; img-src 'self' blob:; media-src 'self' blob:; connect-src 'self'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; base-uri 'none'; form-action 'none'`;

/** JSON put inside a `<script type="application/json">`: it can never close the element. */
const inertJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * A protected event's page: a password prompt, the salt and iteration count, and the photo list
 * sealed with the key (the event's name, the photos' names and how many there are included).
 * Nothing of the event is readable without the password; the page's words are its language's.
 */
export function renderLockedPage(
  language: 'fr' | 'en',
  lock: EventLock,
  brand: { logo: string | null; colors: PublishColors | null },
  list: SealedList,
): string {
  const t = TEXT[language];
  const l = LOCK_TEXT[language];
  const sealed = sealBuffer(lock, Buffer.from(JSON.stringify(list), 'utf8')).toString('base64');
  const config = { salt: lock.salt.toString('base64'), iterations: lock.iterations, sealed };
  const texts = {
    open: l.open,
    opening: l.opening,
    wrong: l.wrong,
    insecure: l.insecure,
    failed: l.failed,
    empty: t.empty,
    video: t.video,
    animation: t.animation,
    photo: t.photo,
  };
  // The logo is the company's, not the event's: shown before the password, like the page's words.
  const logo = brand.logo ? `<img class="logo" src="${esc(brand.logo)}" alt="" data-testid="gallery-logo">` : '';
  return `${documentHead(language, CSP, l.heading, `${STYLE}\n${LOCK_STYLE}\n${brandStyle(brand.colors)}`)}
<body>
<form class="lock" id="unlock" data-testid="unlock-form">${logo}<h1>${esc(l.heading)}</h1><p>${esc(l.lead)}</p>
<label for="pw">${esc(l.label)}</label><input id="pw" type="password" autocomplete="current-password" required data-testid="unlock-password">
<button type="submit" id="go" data-testid="unlock-button">${esc(l.open)}</button><p id="err" role="alert" data-testid="unlock-error"></p></form>
<div id="gallery" hidden>
<header><h1 id="g-title" data-testid="gallery-title"></h1><div class="meta" id="g-meta" data-testid="gallery-meta"></div><p class="welcome" id="g-welcome" data-testid="gallery-welcome" hidden></p>
<a class="btn zip" id="g-zip" href="#" data-testid="gallery-zip" hidden><span></span></a></header>
<main><ul class="grid" id="grid"></ul></main>
<p class="expires" id="g-expires" data-testid="gallery-expires" hidden></p><footer>${esc(t.footer)}</footer>
</div>
<dialog id="lb" data-testid="lightbox">
<div class="bar top"><span id="lb-pos" data-testid="lightbox-position"></span><button type="button" id="lb-close" aria-label="${esc(t.close)}">✕</button></div>
<div id="lb-stage"></div>
<div class="bar bottom"><button type="button" id="lb-prev" aria-label="${esc(t.previous)}">‹</button><a id="lb-dl" class="btn" href="#" data-testid="lightbox-download">${esc(t.download)}</a><button type="button" id="lb-next" aria-label="${esc(t.next)}">›</button></div>
</dialog>
<script type="application/json" id="lock">${inertJson(config)}</script>
<script type="application/json" id="texts">${inertJson(texts)}</script>
<script>${LOCKED_SCRIPT}</script>
</body>
</html>
`;
}
