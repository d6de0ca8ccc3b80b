import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CaptureAppPort, CaptureFile } from '../capture/capture.port.js';
import { captureMediaPath } from '../capture/capture-media.js';
import { NotFoundError } from '../core/errors.js';
import { copyBounded, readBounded, TooLargeError, TooSlowError } from '../media/bounded-read.js';
import { placeholder } from '../media/placeholder.js';
import { MAX_SOURCE_BYTES, MAX_VIDEO_BYTES } from './image-limits.js';
import { mediaVersion } from './media-version.js';
import type { PhotoRow } from './photo.repository.js';
import type { PosterStore, VideoSource } from './poster.store.js';
import { PreviewCache } from './preview.cache.js';
import { UnreadableMediaError, type ThumbnailPriority, type ThumbnailStore } from './thumbnail.store.js';

/** A picture to send: the version it shows, and whether it is a stand-in (never cached for long). */
export interface Picture {
  data: Buffer;
  contentType: string;
  version: string;
  placeholder: boolean;
}

/** A still to show large: a file on disk, the capture app's own copy, or a picture in memory. */
export type Preview = { local: string; contentType: string; version: string } | { remote: CaptureFile; version: string } | Picture;

const THUMB_SIZE = 480;
/** A thumbnail's source trickled slower than this shows the placeholder (tried again later). */
const THUMBNAIL_FETCH_DEADLINE_MS = 30_000;
const POSTER_SIZE = { width: 1200, height: 800 };

/**
 * The pictures Boothdeck draws from the capture app's files: thumbnails of every kind, and a
 * video's poster (a frame, since every copy the capture app makes of a video is an MP4). A file
 * that cannot be drawn from gets a placeholder, never an error page.
 */
export class PhotoMedia {
  private readonly previews: PreviewCache;

  constructor(
    private readonly capture: CaptureAppPort,
    private readonly thumbnails: ThumbnailStore,
    private readonly posters: PosterStore,
    private readonly captureDataDir: string,
    /** The photo's version now, undefined once it left the index: a copy of anything else is not kept. */
    private readonly currentVersion: (id: string) => string | undefined,
  ) {
    this.previews = new PreviewCache(capture);
  }

  localFile(row: Pick<PhotoRow, 'file'>): string | undefined {
    const full = captureMediaPath(this.captureDataDir, row.file);
    return full && existsSync(full) ? full : undefined;
  }

  /**
   * Whether the photo's file is known to be gone: Boothdeck reads the capture app's folder (the
   * capture app runs on this machine) and the file is not in it. Elsewhere only the capture app can tell.
   */
  fileGone(row: Pick<PhotoRow, 'file'>): boolean {
    return existsSync(path.join(this.captureDataDir, 'media', 'processed_full')) && this.localFile(row) === undefined;
  }

  hasThumbnail(row: PhotoRow): boolean {
    return this.thumbnails.has(row.id, mediaVersion(row));
  }

  async thumbnail(row: PhotoRow, priority: ThumbnailPriority): Promise<Picture> {
    const version = mediaVersion(row);
    const wanted = (): boolean => this.currentVersion(row.id) === version;
    const stand = async (): Promise<Picture> => ({
      data: await placeholder(row.kind === 'video' ? 'video' : 'image', 'webp', THUMB_SIZE, Math.round(THUMB_SIZE * 0.75)),
      contentType: 'image/webp',
      version,
      placeholder: true,
    });
    let source: () => Promise<Buffer | string>;
    if (row.kind === 'video') {
      // The thumbnail of a video is drawn from its poster; without one, the placeholder stands.
      if (!this.thumbnails.has(row.id, version)) {
        const poster = await this.poster(row, version);
        if (!poster) return stand();
        source = () => Promise.resolve(poster);
      } else source = () => Promise.reject(new NotFoundError('The thumbnail vanished'));
    } else source = () => this.stillSource(row);
    try {
      const data = await this.thumbnails.ensure(row.id, version, wanted, source, priority);
      return { data, contentType: 'image/webp', version, placeholder: false };
    } catch (err) {
      if (err instanceof UnreadableMediaError) return stand();
      throw err;
    }
  }

  /** A still's own file when Boothdeck can read it, else the capture app's thumbnail, bounded. */
  private async stillSource(row: PhotoRow): Promise<Buffer | string> {
    const local = this.localFile(row);
    if (local) return local;
    const remote = await this.capture.openMedia('thumbnail', row.id);
    if (!remote) throw new NotFoundError('The photo’s file is missing');
    if (!remote.contentType.startsWith('image/')) {
      remote.stream.destroy();
      throw new UnreadableMediaError(`The capture app's thumbnail is ${remote.contentType}`);
    }
    try {
      return await readBounded(remote.stream, MAX_SOURCE_BYTES, remote.contentLength, THUMBNAIL_FETCH_DEADLINE_MS);
    } catch (err) {
      if (err instanceof TooLargeError || err instanceof TooSlowError) throw new UnreadableMediaError(err.message);
      throw err;
    }
  }

  /** What the lightbox shows before (or instead of) playing: a video's poster, a still's preview. */
  async preview(row: PhotoRow): Promise<Preview> {
    const version = mediaVersion(row);
    if (row.kind !== 'video') {
      // Fetched from the capture app once per version, however many phones open it.
      const preview = await this.previews.get(row.id, version, () => this.currentVersion(row.id) === version);
      return 'remote' in preview ? { remote: preview.remote, version } : { ...preview, version, placeholder: false };
    }
    const poster = await this.poster(row, version);
    if (poster) return { local: poster, contentType: 'image/jpeg', version };
    return {
      data: await placeholder('video', 'jpeg', POSTER_SIZE.width, POSTER_SIZE.height),
      contentType: 'image/jpeg',
      version,
      placeholder: true,
    };
  }

  private poster(row: PhotoRow, version: string): Promise<string | null> {
    return this.posters.ensure(
      row.id,
      version,
      () => this.currentVersion(row.id) === version,
      () => this.videoSource(row),
    );
  }

  /** The video itself when Boothdeck can read the capture app's folder, else its preview copy, fetched. */
  private async videoSource(row: PhotoRow): Promise<VideoSource> {
    const local = this.localFile(row);
    if (local) return { path: local };
    const remote = await this.capture.openMedia('preview', row.id);
    if (!remote) throw new NotFoundError('The video’s file is missing');
    const copy = path.join(this.posters.dir, `.video-${randomBytes(6).toString('hex')}${path.extname(row.file) || '.mp4'}`);
    await copyBounded(remote.stream, copy, MAX_VIDEO_BYTES, remote.contentLength);
    return { path: copy, release: () => rm(copy, { force: true }) };
  }

  /** Forgets the copies made of a photo: of one replaced version, or of all (the photo is gone). */
  async forget(id: string, replaced?: string): Promise<void> {
    const keep = replaced === undefined ? undefined : this.currentVersion(id);
    this.previews.forget(id, replaced);
    await Promise.all([
      replaced === undefined ? this.thumbnails.remove(id) : this.thumbnails.remove(id, replaced),
      this.posters.remove(id, keep),
    ]);
  }
}
