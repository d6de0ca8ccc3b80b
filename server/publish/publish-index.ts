import path from 'node:path';
import type { PublishSettings } from '../contract/publish.contract.js';
import { parseStem } from '../capture/stem.js';
import { photoFileName } from '../events/file-names.js';
import type { EventRow } from '../events/event.repository.js';
import { fileNamePart } from '../events/file-names.js';
import type { ZipState } from './publish-zip.js';
import type { EventLock } from './publish-lock.js';
import { renderLockedPage, type SealedPhoto } from './publish-locked-page.js';
import { renderEventPage, rowHeight, TEXT, tileRatio, type PagePhoto } from './publish-page.js';
import type { PublishablePhoto, PublishFileRow } from './publish.repository.js';

export function dateLabel(at: number, language: 'fr' | 'en'): string {
  return new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long' }).format(new Date(at));
}

/** The names downloads are saved under; ranks count from the oldest photo of a second, as the booth's own do. */
export function downloadNames(eventName: string, photos: readonly Pick<PublishablePhoto, 'id' | 'stem' | 'file'>[]): Map<string, string> {
  const perSecond = new Map<string, number>();
  const names = new Map<string, string>();
  for (const photo of [...photos].sort((a, b) => a.stem.localeCompare(b.stem))) {
    const second = parseStem(photo.stem)?.second ?? photo.stem;
    const rank = perSecond.get(second) ?? 0;
    perSecond.set(second, rank + 1);
    names.set(photo.id, photoFileName(eventName, photo.stem, rank, path.extname(photo.file)));
  }
  return names;
}

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
};

/** A protected file's type, for the browser to show it once opened (its name no longer says it). */
const typeOf = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

export interface IndexInput {
  event: EventRow;
  rows: readonly (PublishFileRow & PublishablePhoto)[];
  settings: PublishSettings;
  /** The take-down moment; null: none. */
  expiry: number | null;
  lock: EventLock | undefined;
  zip: ZipState | null;
  /** The logo's name beside the page; null: none. */
  logo: string | null;
}

/** A ZIP's size as people read it: « 48,2 Mo », "48.2 MB". */
function sizeLabel(bytes: number, language: 'fr' | 'en'): string {
  const mb = bytes / 1_000_000;
  const number = new Intl.NumberFormat(language === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: mb < 10 ? 1 : 0 }).format(mb);
  return language === 'fr' ? `${number} Mo` : `${number} MB`;
}

/** The event's `index.html`: the plain page, or the password prompt with everything sealed. */
export function eventPageHtml({ event, rows, settings, expiry, lock, zip, logo }: IndexInput): string {
  const language = settings.language;
  const downloads = downloadNames(event.name, rows);
  const firstTaken = rows.length > 0 ? Math.min(...rows.map((r) => r.taken_at)) : event.created_at;
  const date = dateLabel(firstTaken, language);
  const expiresLabel = expiry === null ? null : dateLabel(expiry, language);
  const t = TEXT[language];
  const offer = zip?.name
    ? { href: zip.name, label: t.zip(rows.length, sizeLabel(zip.size, language)), as: `${fileNamePart(event.name)}.zip` }
    : null;
  if (lock !== undefined) {
    const photos: SealedPhoto[] = rows.map((row) => {
      const [media = '', thumb = '', page = '', preview] = JSON.parse(row.names) as string[];
      const photo: SealedPhoto = {
        id: path.basename(page, '.html'),
        m: media,
        t: thumb,
        k: row.kind,
        x: typeOf(row.file),
        n: downloads.get(row.photo_id) ?? path.basename(media),
      };
      const r = tileRatio(row.thumb_w, row.thumb_h);
      return { ...photo, ...(preview === undefined ? {} : { p: preview }), ...(r === undefined ? {} : { r }) };
    });
    return renderLockedPage(
      language,
      lock,
      { logo, colors: settings.colors },
      {
        title: event.name,
        meta: `${date} · ${t.photos(photos.length)}`,
        welcome: event.welcome,
        expires: expiresLabel === null ? null : t.expires(expiresLabel),
        zip: offer === null ? null : { name: offer.href, as: offer.as, label: offer.label },
        h: rowHeight(photos.map((p) => p.r)),
        photos,
      },
    );
  }
  const photos: PagePhoto[] = rows.map((row) => {
    const [media = '', thumb = '', , preview] = JSON.parse(row.names) as string[];
    return {
      media,
      preview,
      thumb,
      kind: row.kind,
      downloadName: downloads.get(row.photo_id) ?? path.basename(media),
      ratio: tileRatio(row.thumb_w, row.thumb_h),
    };
  });
  return renderEventPage({
    eventName: event.name,
    dateLabel: date,
    language,
    photos,
    expiresLabel,
    zip: offer,
    welcome: event.welcome,
    logo,
    colors: settings.colors,
  });
}
