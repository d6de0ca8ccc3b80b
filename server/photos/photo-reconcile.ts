import type { CaptureAppPort } from '../capture/capture.port.js';
import type { MediaItem } from '../capture/capture.types.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { FileState, PhotoRepository } from './photo.repository.js';

/** Vanished files checked one by one with the capture app; beyond this, the whole list decides. */
export const MAX_VANISHED_CHECKS = 200;
/** Pages of the capture app's list read at most (200,000 items). */
const MAX_PAGES = 400;

const PAGE = 500;

/**
 * The indexed ids the capture app no longer lists, read from its whole list (newest first,
 * `PAGE` at a time, at most `maxPages`). Undefined when the list could not be read to its end:
 * a partial list proves nothing about what it did not reach. Every item Boothdeck indexes came
 * from that list or from a DbInsert, both of which hold only items shown in the gallery, so an
 * indexed id missing from a whole list has been deleted at the booth.
 */
export async function unlistedIds(capture: CaptureAppPort, indexed: Iterable<string>, maxPages: number): Promise<string[] | undefined> {
  const listed = new Set<string>();
  for (let pageNo = 0; pageNo < maxPages; pageNo++) {
    const page = await capture.listMedia(pageNo * PAGE, PAGE);
    let fresh = 0;
    for (const item of page) {
      if (listed.has(item.id)) continue;
      listed.add(item.id);
      fresh++;
    }
    if (page.length < PAGE) return [...indexed].filter((id) => !listed.has(id));
    // A capture app that ignores `offset` answers the same page again: the end is never reached.
    if (fresh === 0) return undefined;
  }
  return undefined;
}

/** What an indexer needs to settle removals: the index, the capture app, and its own way of removing a photo. */
export interface RemovalDeps {
  photos: PhotoRepository;
  capture: CaptureAppPort;
  clock: Clock;
  log: Logger;
  remove: (id: string) => void;
}

/** Photos the capture app deleted or lost: removed from the index, or flagged missing. */
export class Removals {
  constructor(private readonly deps: RemovalDeps) {}

  private get photos(): PhotoRepository {
    return this.deps.photos;
  }
  private get capture(): CaptureAppPort {
    return this.deps.capture;
  }
  private get clock(): Clock {
    return this.deps.clock;
  }
  private get log(): Logger {
    return this.deps.log;
  }
  private remove(id: string): void {
    this.deps.remove(id);
  }

  /**
   * A file that vanished is either a photo deleted in the capture app (its item is gone too: the
   * row goes) or a file lost on its own (the item remains: the photo is reported missing).
   * Returns how many rows went.
   */
  async settleVanished(vanished: readonly FileState[]): Promise<number> {
    if (vanished.length === 0) return 0;
    let gone = 0;
    const missing: string[] = [];
    for (const [i, file] of vanished.entries()) {
      let item: MediaItem | null | undefined;
      if (i < MAX_VANISHED_CHECKS) item = await this.capture.getMediaItem(file.id).catch(() => undefined);
      if (item === null) {
        this.remove(file.id);
        gone++;
      } else {
        missing.push(file.stem);
      }
    }
    this.photos.markMissing(missing, true);
    if (missing.length > 0) this.log.warn(`${missing.length} indexed photo file(s) vanished from the capture app's media folder`);
    return gone;
  }

  /** Removes what the capture app no longer lists, each confirmed by asking it; returns how many went. */
  async settleUnlisted(since: number): Promise<number> {
    const before = this.clock.now() - (this.clock.monotonic() - since);
    const candidates = this.photos.allIds().filter((r) => r.indexed_at < before);
    let unlisted: string[] | undefined;
    try {
      unlisted = await unlistedIds(
        this.capture,
        candidates.map((r) => r.id),
        MAX_PAGES,
      );
    } catch (err) {
      this.log.warn(`Could not list the capture app's media to find deleted photos: ${err instanceof Error ? err.message : String(err)}`);
    }
    let gone = 0;
    for (const id of (unlisted ?? []).slice(0, MAX_VANISHED_CHECKS)) {
      // Asked one by one: an item deleted while the list was paged shifts the pages under it.
      if ((await this.capture.getMediaItem(id).catch(() => undefined)) !== null) continue;
      this.remove(id);
      gone++;
    }
    return gone;
  }
}
