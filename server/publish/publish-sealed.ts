import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mediaVersion } from '../photos/media-version.js';
import { lockMark, sealBuffer, sealedName, type EventLock } from './publish-lock.js';
import type { PublishWork } from './publish-tasks.js';
import {
  linkOrCopy,
  namesList,
  namesOf,
  placeMedia,
  sizesOf,
  type PhotoNames,
  type PublishSources,
  type StagedPhoto,
} from './publish-files.js';
import { webpSize } from './webp-size.js';
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
 * Lays a protected photo out for rclone under its keyed names: the full file sealed (AES-256-GCM,
 * a random IV, streamed by a background worker) straight from the capture app's folder, the
 * thumbnail sealed here (a few kilobytes), and the preview's kept sealed copy linked. Only a
 * photo fetched from a capture app running elsewhere is ever in the clear on the card, briefly.
 */
export async function stageSealedPhoto(
  dir: string,
  photo: PublishablePhoto,
  sources: PublishSources,
  lock: EventLock,
  language: 'fr' | 'en',
  work: PublishWork,
): Promise<StagedPhoto> {
  const names = sealedNamesOf(photo, lock);
  const clear = path.join(dir, '.clear', sealedId(names));
  try {
    for (const name of namesList(names)) await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    let media = sources.localFile(photo);
    if (media === undefined) {
      media = path.join(clear, path.basename(namesOf(photo).media));
      await placeMedia(photo, sources, media);
    }
    await work.seal(lock.key, media, path.join(dir, names.media));
    const thumb = await sources.thumbnail(photo);
    await writeFile(path.join(dir, names.thumb), sealBuffer(lock, thumb));
    if (names.preview !== undefined) {
      const plain = await sources.preview(photo, media);
      const to = path.join(dir, names.preview);
      // Not a picture sharp reads: the file itself stands for its preview, as in an open gallery.
      if (plain === null) await work.seal(lock.key, media, to);
      else await linkOrCopy(await sources.sealedPreview(photo, plain, lock), to);
    }
    await writeFile(path.join(dir, names.page), sealedPhotoPage(sealedId(names), language));
    return { names, sizes: await sizesOf(dir, namesList(names)), thumb: webpSize(thumb) };
  } finally {
    await rm(clear, { recursive: true, force: true });
  }
}
