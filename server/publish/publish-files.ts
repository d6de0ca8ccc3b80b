import { copyFile, link, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mediaVersion } from '../photos/media-version.js';
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
  /** A picture of the file at `file` for screens, 1600 px at most; it throws when the file cannot be read as a picture. */
  preview(file: string): Promise<Buffer>;
}

export class SourceMissingError extends Error {
  constructor(readonly photoId: string) {
    super(`The file of photo ${photoId} is missing`);
  }
}

/**
 * Puts a photo's files under the batch's folder with their published names: the original as a
 * hard link (no copy on the booth's card) or a copy across file systems, the thumbnail and its page written.
 */
export async function stagePhoto(
  dir: string,
  photo: PublishablePhoto,
  sources: PublishSources,
  pageHtml: (names: PhotoNames) => string,
): Promise<PhotoNames> {
  const names = namesOf(photo);
  const media = path.join(dir, names.media);
  const thumb = path.join(dir, names.thumb);
  const page = path.join(dir, names.page);
  const preview = names.preview === undefined ? undefined : path.join(dir, names.preview);
  for (const file of [media, thumb, page, ...(preview ? [preview] : [])]) await mkdir(path.dirname(file), { recursive: true });
  await rm(media, { force: true });
  const local = sources.localFile(photo);
  if (local) {
    try {
      await link(local, media);
    } catch {
      await copyFile(local, media);
    }
  } else if (!(await sources.fetchFull(photo, media))) throw new SourceMissingError(photo.id);
  await writeFile(thumb, await sources.thumbnail(photo));
  await writeFile(page, pageHtml(names));
  if (preview) {
    try {
      await writeFile(preview, await sources.preview(media));
    } catch {
      // A picture sharp cannot read is still published: its preview is the file itself, so every
      // name the row lists exists and the comparison with the remote does not send it forever.
      await link(media, preview).catch(() => copyFile(media, preview));
    }
  }
  return names;
}
