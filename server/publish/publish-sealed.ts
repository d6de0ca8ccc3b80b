import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mediaVersion } from '../photos/media-version.js';
import { lockMark, sealedName, type EventLock } from './publish-lock.js';
import type { PublishWork } from './publish-tasks.js';
import { namesOf, stagePhoto, type PhotoNames, type PublishSources } from './publish-files.js';
import type { PublishablePhoto } from './publish.repository.js';

/** A photo's version in the queue: a password (its salt) is part of it, so a new one sends everything again. */
export function rowVersion(photo: Pick<PublishablePhoto, 'mtime' | 'size' | 'updated_at'>, lock: EventLock | undefined): string {
  const version = mediaVersion(photo);
  return lock === undefined ? version : `${version}.${lockMark(lock)}`;
}

/**
 * A photo's names in a protected gallery: the same folders, and one keyed hash in place of the
 * capture time, the version and the file type (the bucket's listing tells nothing of the photos).
 */
export function sealedNamesOf(photo: Parameters<typeof namesOf>[0], lock: EventLock): PhotoNames {
  const plain = namesOf(photo);
  const h = sealedName(lock, plain.media);
  const names: PhotoNames = { media: `media/${h}.bin`, thumb: `thumbs/${h}.bin`, page: `p/${h}.html` };
  return plain.preview === undefined ? names : { ...names, preview: `previews/${h}.bin` };
}

/** The name a photo's own page and the gallery's address share: `p/<id>.html` leads to `../#<id>`. */
export const sealedId = (names: PhotoNames): string => path.basename(names.page, '.html');

/**
 * A protected photo's own page cannot show the photo without the password: it sends the guest to
 * the event's page, which asks for it and then opens that photo. No script, nothing else in it.
 */
export function sealedPhotoPage(id: string, language: 'fr' | 'en'): string {
  const target = `../#${id}`;
  const words = language === 'fr' ? 'Ouvrir la galerie' : 'Open the gallery';
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow, noarchive"><meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; base-uri 'none'; form-action 'none'">
<meta http-equiv="refresh" content="0; url=${target}"><title>${words}</title></head>
<body><p><a href="${target}">${words}</a></p></body></html>
`;
}

/**
 * Lays a protected photo out for rclone: its files staged in the clear in a folder of the batch's
 * own, each sealed (AES-256-GCM, a random IV per file, in a background worker) under its keyed name,
 * the clear copies removed.
 */
export async function stageSealedPhoto(
  dir: string,
  photo: PublishablePhoto,
  sources: PublishSources,
  lock: EventLock,
  language: 'fr' | 'en',
  work: PublishWork,
): Promise<PhotoNames> {
  const names = sealedNamesOf(photo, lock);
  const clear = path.join(dir, '.clear', sealedId(names));
  try {
    const plain = await stagePhoto(clear, photo, sources, () => '');
    const pairs: [string, string][] = [
      [plain.media, names.media],
      [plain.thumb, names.thumb],
      ...(plain.preview !== undefined && names.preview !== undefined ? [[plain.preview, names.preview] as [string, string]] : []),
    ];
    for (const [from, to] of pairs) {
      await mkdir(path.dirname(path.join(dir, to)), { recursive: true });
      await work.seal(lock.key, path.join(clear, from), path.join(dir, to));
    }
    await mkdir(path.join(dir, 'p'), { recursive: true });
    await writeFile(path.join(dir, names.page), sealedPhotoPage(sealedId(names), language));
    return names;
  } finally {
    await rm(clear, { recursive: true, force: true });
  }
}
