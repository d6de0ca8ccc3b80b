import { existsSync, mkdirSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/fs/atomic-write.js';
import { NotFoundError, isDiskFull } from '../core/errors.js';
import { ByteCache } from '../core/util/byte-cache.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import { DerivedFiles } from './derived-files.js';
import { UnreadableMediaError, resizeBounded } from '../media/image-decoder.js';
import type { Resize } from '../media/background-resize.js';

const EDGE_PX = 480;
const QUALITY = 72;
/**
 * libwebp's effort 2 of 6: a 4000×3000 camera photo's thumbnail in 33 ms instead of 44 ms (the
 * JPEG's shrink-on-load decode is 29 of them), for files 6 % larger.
 */
const EFFORT = 2;
/**
 * sharp makes each thumbnail on one thread (its concurrency is 1 with glibc's allocator): two at
 * a time use two cores and leave the rest of a Pi to the capture app.
 */
const PARALLEL = 2;
/** Thumbnails made ahead of any request take one of those two at most, and only when no one waits. */
const BACKGROUND_PARALLEL = 1;

/**
 * Who waits for a thumbnail: a gallery's request; the newest photos of the current event, which
 * the next guest's first screen shows (made with both slots, without waiting for a quiet moment,
 * after any request); or anything else made ahead, in the background.
 */
export type ThumbnailPriority = 'request' | 'first-screen' | 'background';
/**
 * Background work also waits this long after a gallery's last thumbnail request: a phone loading
 * its first screen has the processor to itself (after a first index, the queue has two thousand
 * thumbnails to make, a core's worth of work for over a minute).
 */
const QUIET_MS = 250;
/**
 * Thumbnails kept in memory: about a thousand of real photos, the newest of an event, which
 * every phone opening the gallery asks for. Reading each from disk cost four system calls on
 * a path where a large screen sends a hundred requests.
 */
const MEMORY_BYTES = 32 * 1024 * 1024;

export { UnreadableMediaError };

/** A file found unreadable is not fetched and decoded again before this long. */
const UNREADABLE_RETRY_MS = 10 * 60_000;
const UNREADABLE_KEPT = 1000;

/** A place in the line for the two slots; one made ahead can be moved up when someone asks. */
interface Ticket {
  priority: ThumbnailPriority;
  wake?: () => void;
}

/**
 * Gallery thumbnails, made once with sharp (WebP, a few tens of KB) and kept on disk under
 * the photo's UUID and media version. Requests for the same thumbnail while it is being made
 * share the work. Requests from a gallery always go before thumbnails made ahead in the background.
 */
export class ThumbnailStore {
  private readonly files: DerivedFiles;
  private readonly inFlight = new Map<string, { work: Promise<Buffer>; ticket: Ticket }>();
  /** Thumbnails being read back from disk into memory, by key. */
  private readonly reading = new Map<string, Promise<Buffer>>();
  private readonly unreadableAt = new Map<string, number>();
  private readonly memory = new ByteCache(MEMORY_BYTES);
  private running = 0;
  private backgroundRunning = 0;
  /** One line per priority, in the order they are served. */
  private readonly lines: Record<ThumbnailPriority, Ticket[]> = { request: [], 'first-screen': [], background: [] };
  private lastRequestAt = -Infinity;
  private quietTimer: TimerHandle | undefined;

  constructor(
    dir: string,
    private readonly clock: Clock,
    /** Where thumbnails made ahead are drawn: below the capture app (background-resize.ts); a guest's own request stays here. */
    private readonly background: Resize = resizeBounded,
  ) {
    this.files = new DerivedFiles(dir, 'webp');
  }

  pathOf(id: string, version: string): string {
    return this.files.pathOf(id, version);
  }

  has(id: string, version: string): boolean {
    return this.memory.has(`${id}-${version}`) || existsSync(this.pathOf(id, version));
  }

  /**
   * The thumbnail of one version of a photo, made from `source` (an image buffer or a file
   * path) if not there yet. `wanted` is asked again before writing: a photo deleted (or
   * rewritten) meanwhile leaves no thumbnail. Work made ahead (`priority` other than 'request')
   * yields to every request. A source sharp cannot or must not decode (too many pixels, not an image) is an
   * UnreadableMediaError, and is not tried again for a while.
   * On a full disk the thumbnail is still handed back, kept in memory only: the gallery keeps serving.
   */
  ensure(
    id: string,
    version: string,
    wanted: () => boolean,
    source: () => Promise<Buffer | string>,
    priority: ThumbnailPriority = 'request',
  ): Promise<Buffer> {
    const file = this.pathOf(id, version);
    const key = `${id}-${version}`;
    if (priority === 'request') this.lastRequestAt = this.clock.monotonic();
    const kept = this.memory.get(key);
    if (kept) return Promise.resolve(kept);
    // Two hundred phones ask for a new photo's thumbnail within a second: they share one making
    // or one read, and none looks at the disk while it is made.
    const pending = this.inFlight.get(key);
    if (pending) {
      this.promote(pending.ticket, priority);
      return pending.work;
    }
    const reading = this.reading.get(key);
    if (reading) return reading;
    if (existsSync(file)) return this.readKept(key, file);
    const failed = this.unreadableAt.get(key);
    if (failed !== undefined && this.clock.monotonic() - failed < UNREADABLE_RETRY_MS) {
      return Promise.reject(new UnreadableMediaError('This file was found unreadable a moment ago'));
    }
    const ticket: Ticket = { priority };
    const work = this.slot(ticket, async () => {
      let data: Buffer;
      try {
        const resize = ticket.priority === 'request' ? resizeBounded : this.background;
        data = await resize(await source(), { edge: EDGE_PX, format: 'webp', quality: QUALITY, effort: EFFORT });
      } catch (err) {
        // The source's own refusal or the decoder's (every failure of resizeBounded is one).
        if (err instanceof UnreadableMediaError) this.noteUnreadable(key);
        throw err;
      }
      if (!wanted()) throw new NotFoundError('No such photo');
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, data);
        await fsp.rm(this.files.legacyPathOf(id), { force: true });
      } catch (err) {
        if (!isDiskFull(err)) throw err;
      }
      // A photo deleted while its thumbnail was written must not linger in memory.
      if (wanted()) this.memory.set(key, data);
      return data;
    }).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, { work, ticket });
    return work;
  }

  /** Remembers a source that cannot be made into a thumbnail, so that it is not fetched again at once. */
  private noteUnreadable(key: string): void {
    if (this.unreadableAt.size >= UNREADABLE_KEPT) this.unreadableAt.clear();
    this.unreadableAt.set(key, this.clock.monotonic());
  }

  /** Forgets a photo's thumbnails: one version (`version`), or all of them. */
  async remove(id: string, version?: string): Promise<void> {
    if (version !== undefined) {
      this.memory.delete(`${id}-${version}`);
      this.reading.delete(`${id}-${version}`);
      await fsp.rm(this.pathOf(id, version), { force: true }).catch(() => undefined);
      return;
    }
    this.memory.deleteWhere((key) => key.startsWith(id));
    for (const key of [...this.reading.keys()]) if (key.startsWith(id)) this.reading.delete(key);
    await this.files.removeAll(id);
  }

  private readKept(key: string, file: string): Promise<Buffer> {
    const work = fsp
      .readFile(file)
      .then((data) => {
        // Removed while it was read (remove() forgets the read): not kept.
        if (this.reading.get(key) === work) this.memory.set(key, data);
        return data;
      })
      .finally(() => {
        if (this.reading.get(key) === work) this.reading.delete(key);
      });
    this.reading.set(key, work);
    return work;
  }

  private canStart(ticket: Ticket): boolean {
    if (this.running >= PARALLEL) return false;
    if (ticket.priority === 'request') return true;
    if (this.lines.request.length > 0) return false;
    if (ticket.priority === 'first-screen') return true;
    return this.backgroundRunning < BACKGROUND_PARALLEL && this.lines['first-screen'].length === 0 && this.quiet();
  }

  /** Whether galleries have been quiet long enough for background work; if not, wakes the line when they will have. */
  private quiet(): boolean {
    const left = this.lastRequestAt + QUIET_MS - this.clock.monotonic();
    if (left <= 0) return true;
    this.quietTimer ??= this.clock.setTimeout(() => {
      this.quietTimer = undefined;
      this.wakeNext();
    }, left);
    return false;
  }

  private take(ticket: Ticket): boolean {
    this.running++;
    const background = ticket.priority === 'background';
    if (background) this.backgroundRunning++;
    return background;
  }

  /** Someone now waits more urgently for a thumbnail still in a line: it moves to that one's line. */
  private promote(ticket: Ticket, priority: ThumbnailPriority): void {
    const order: ThumbnailPriority[] = ['request', 'first-screen', 'background'];
    if (order.indexOf(priority) >= order.indexOf(ticket.priority)) return;
    const line = this.lines[ticket.priority];
    const at = line.indexOf(ticket);
    if (at < 0) return;
    line.splice(at, 1);
    ticket.priority = priority;
    this.lines[priority].push(ticket);
    this.wakeNext();
  }

  /** Hands freed slots over: requests first, then the first screen, then background work. */
  private wakeNext(): void {
    for (;;) {
      const next = this.lines.request[0] ?? this.lines['first-screen'][0] ?? this.lines.background[0];
      if (!next || !this.canStart(next)) return;
      this.lines[next.priority].shift();
      this.take(next);
      next.wake?.();
    }
  }

  private async slot<T>(ticket: Ticket, task: () => Promise<T>): Promise<T> {
    // What the slot counts as is fixed when it is taken: a promotion only changes the line.
    let background: boolean;
    if (this.canStart(ticket)) background = this.take(ticket);
    else {
      await new Promise<void>((resolve) => ((ticket.wake = resolve), this.lines[ticket.priority].push(ticket)));
      background = ticket.priority === 'background';
    }
    try {
      return await task();
    } finally {
      this.running--;
      if (background) this.backgroundRunning--;
      this.wakeNext();
    }
  }
}
