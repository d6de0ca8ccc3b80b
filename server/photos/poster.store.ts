import { existsSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock/clock.port.js';
import { writeFileAtomic } from '../core/fs/atomic-write.js';
import type { Logger } from '../core/logger.js';
import { Mutex } from '../core/util/mutex.js';
import type { VideoFramePort } from '../media/video-frame.port.js';
import { DerivedFiles } from './derived-files.js';
import { resizeBounded } from '../media/image-decoder.js';
import type { Resize } from '../media/background-resize.js';

/** As large as the capture app's own previews: what the lightbox shows before the video plays. */
const POSTER_EDGE = 1200;
/** Without ffmpeg, it is looked for again after this long: installing it needs no restart. */
const NO_TOOL_RETRY_MS = 60_000;
/** A video that gave no frame is tried again only after this long. */
const FAILED_RETRY_MS = 10 * 60_000;
const FAILURES_KEPT = 1000;

/** A local video to draw from, and what to do once done with it (a downloaded copy is removed). */
export interface VideoSource {
  path: string;
  release?: () => Promise<void>;
}

/**
 * A video's poster: one frame, drawn once per version of the video and kept on disk like the
 * thumbnails. It is the lightbox's still before the video plays, and the picture its thumbnail
 * is made from. Null when no frame can be drawn: the caller shows a placeholder.
 */
export class PosterStore {
  private readonly files: DerivedFiles;
  private readonly inFlight = new Map<string, Promise<string | null>>();
  /** ffmpeg runs one at a time: a Pi's cores belong to the capture app first. */
  private readonly line = new Mutex();
  private noToolUntil = -Infinity;
  private readonly failedAt = new Map<string, number>();

  constructor(
    dir: string,
    private readonly frames: VideoFramePort,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Where the frame is scaled: below the capture app (background-resize.ts). */
    private readonly resize: Resize = resizeBounded,
  ) {
    this.files = new DerivedFiles(dir, 'jpg');
  }

  /** Where posters are kept; a video fetched to draw one from is put there too, briefly. */
  get dir(): string {
    return this.files.dir;
  }

  has(id: string, version: string): boolean {
    return existsSync(this.files.pathOf(id, version));
  }

  /** The poster's file, made from `source` if not there yet; `wanted` is asked before it is kept. */
  ensure(id: string, version: string, wanted: () => boolean, source: () => Promise<VideoSource>): Promise<string | null> {
    const file = this.files.pathOf(id, version);
    if (existsSync(file)) return Promise.resolve(file);
    const now = this.clock.monotonic();
    const key = `${id}-${version}`;
    if (now < this.noToolUntil || now < (this.failedAt.get(key) ?? -Infinity) + FAILED_RETRY_MS) return Promise.resolve(null);
    let work = this.inFlight.get(key);
    if (!work) {
      work = this.line.run(() => this.make(id, file, key, wanted, source)).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, work);
    }
    return work;
  }

  async remove(id: string, keep?: string): Promise<void> {
    await this.files.removeAll(id, keep);
  }

  private async make(
    id: string,
    file: string,
    key: string,
    wanted: () => boolean,
    source: () => Promise<VideoSource>,
  ): Promise<string | null> {
    if (existsSync(file)) return file;
    mkdirSync(path.dirname(file), { recursive: true });
    const frame = path.join(this.files.dir, `.frame-${randomBytes(6).toString('hex')}.jpg`);
    let video: VideoSource | undefined;
    try {
      video = await source();
      const result = await this.frames.grab(video.path, frame);
      if (result !== 'ok') {
        if (result === 'no-tool') {
          this.noToolUntil = this.clock.monotonic() + NO_TOOL_RETRY_MS;
          this.log.warn('Video posters need ffmpeg, which is not installed: videos show a placeholder (apt install ffmpeg)');
        } else this.noteFailure(key, `no frame could be read from video ${id}`);
        return null;
      }
      const poster = await this.resize(frame, { edge: POSTER_EDGE, format: 'jpeg', quality: 82 });
      if (!wanted()) return null;
      await writeFileAtomic(file, poster);
      return file;
    } catch (err) {
      this.noteFailure(key, err instanceof Error ? err.message : String(err));
      return null;
    } finally {
      await rm(frame, { force: true });
      await video?.release?.();
    }
  }

  private noteFailure(key: string, reason: string): void {
    this.log.warn(`Video poster not made (${reason}); a placeholder stands in for it`);
    if (this.failedAt.size >= FAILURES_KEPT) this.failedAt.clear();
    this.failedAt.set(key, this.clock.monotonic());
  }
}
