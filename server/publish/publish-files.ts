import { copyFile, link, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { webpSize } from './webp-size.js';
import { mediaVersion } from '../photos/media-version.js';
import type { EventLock } from './publish-lock.js';
import type { PublishablePhoto } from './publish.repository.js';

/** A photo's names under its event's path. They carry its version: a name is never reused for other content. */
export interface PhotoNames {
  media: string;
  thumb: string;
  /** The photo's own page, the link a guest gets for it. */
  page: string;
  /** A still photo's picture for screens (1600 px at most): the lightbox and the photo's page show it, the download is the full file. */
  preview?: string;
}

/** Rows list their names in this order; the preview is absent for videos, animations and rows older than previews. */
export function namesList(names: PhotoNames): string[] {
  return [names.media, names.thumb, names.page, ...(names.preview === undefined ? [] : [names.preview])];
}

const safeStem = (stem: string): string => stem.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100);

export function namesOf(photo: Pick<PublishablePhoto, 'stem' | 'file' | 'kind' | 'mtime' | 'size' | 'updated_at'>): PhotoNames {
  const version = mediaVersion(photo);
  const raw = path.extname(photo.file).toLowerCase();
  const ext = /^\.[a-z0-9]{1,5}$/.test(raw) ? raw : '.jpg';
  const base = `${safeStem(photo.stem)}-${version}`;
  const names: PhotoNames = { media: `media/${base}${ext}`, thumb: `thumbs/${base}.webp`, page: `p/${base}.html` };
  return photo.kind === 'photo' ? { ...names, preview: `previews/${base}.webp` } : names;
}

/** Where the publisher finds a photo's files. */
export interface PublishSources {
  /** The photo's own file on this machine, when Boothdeck can read the capture app's folder. */
  localFile(photo: PublishablePhoto): string | undefined;
  /** Otherwise a full copy from the capture app, written to `dest`; false when there is none. */
  fetchFull(photo: PublishablePhoto, dest: string): Promise<boolean>;
  /** The thumbnail the galleries show (made at indexing, or now). */
  thumbnail(photo: PublishablePhoto): Promise<Buffer>;
  /**
   * The kept 1600 px preview of the photo's version (made from `file` if it is not kept yet); null
   * when the file is not a picture sharp reads.
   */
  preview(photo: PublishablePhoto, file: string): Promise<string | null>;
  /** The kept sealed copy of that preview under the event's password (sealed from `plain` if not kept yet). */
  sealedPreview(photo: PublishablePhoto, plain: string, lock: EventLock): Promise<string>;
}

export class SourceMissingError extends Error {
  constructor(readonly photoId: string) {
    super(`The file of photo ${photoId} is missing`);
  }
}

/** A photo laid out for rclone: its names, each file's size as laid out (the check compares them), its thumbnail's shape. */
export interface StagedPhoto {
  names: PhotoNames;
  sizes: number[];
  thumb: { width: number; height: number } | null;
}

/** A hard link (no copy on the booth's card), or a copy across file systems. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

/** The photo's own file under `to`: linked from the capture app's folder, or fetched from the capture app. */
export async function placeMedia(photo: PublishablePhoto, sources: PublishSources, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  const local = sources.localFile(photo);
  if (local) await linkOrCopy(local, to);
  else {
    await rm(to, { force: true });
    if (!(await sources.fetchFull(photo, to))) throw new SourceMissingError(photo.id);
  }
}

/** The size of each listed file under `dir`, in the order given. */
export async function sizesOf(dir: string, names: readonly string[]): Promise<number[]> {
  return Promise.all(names.map(async (n) => (await stat(path.join(dir, n))).size));
}

/**
 * Puts a photo's files under the batch's folder with their published names: the original and
 * its kept preview as hard links, the thumbnail and its page written.
 */
export async function stagePhoto(
  dir: string,
  photo: PublishablePhoto,
  sources: PublishSources,
  pageHtml: (names: PhotoNames) => string,
): Promise<StagedPhoto> {
  const names = namesOf(photo);
  const media = path.join(dir, names.media);
  await placeMedia(photo, sources, media);
  const thumbData = await sources.thumbnail(photo);
  for (const name of [names.thumb, names.page, ...(names.preview ? [names.preview] : [])])
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await writeFile(path.join(dir, names.thumb), thumbData);
  await writeFile(path.join(dir, names.page), pageHtml(names));
  if (names.preview !== undefined) {
    // A picture sharp cannot read is still published: its preview is the file itself, so every
    // name the row lists exists and the comparison with the remote does not send it forever.
    const kept = await sources.preview(photo, media);
    await linkOrCopy(kept ?? media, path.join(dir, names.preview));
  }
  return { names, sizes: await sizesOf(dir, namesList(names)), thumb: webpSize(thumbData) };
}
