import type { MediaItem } from '../capture/capture.types.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import { isDiskFull } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

/** How often items refused for lack of space are tried again while none has gone in. */
export const DEFERRED_RETRY_MS = 10_000;
/** Items kept waiting at most; beyond, the next rescan finds their files. */
const MAX_DEFERRED = 5000;

/**
 * Photos announced live whose indexing failed for lack of space (ENOSPC, SQLITE_FULL): kept,
 * and indexed again on a timer and as soon as another write goes through (space is back).
 * Without this they stayed out of the galleries until the next rescan.
 */
export class DeferredIndex {
  private readonly items = new Map<string, MediaItem>();
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly index: (item: MediaItem) => Promise<unknown>,
  ) {}

  get size(): number {
    return this.items.size;
  }

  add(item: MediaItem): void {
    if (this.items.size === 0) this.log.warn('The disk is full: new photos wait to be indexed until space is back');
    if (this.items.size < MAX_DEFERRED || this.items.has(item.id)) this.items.set(item.id, item);
    this.schedule();
  }

  /** A photo deleted meanwhile is not brought back. */
  forget(id: string): void {
    this.items.delete(id);
  }

  /** Indexes what waits, oldest first; stops at the first refusal for lack of space. */
  retryNow(): Promise<void> {
    this.running ??= this.retry().finally(() => (this.running = undefined));
    return this.running;
  }

  stop(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.items.size === 0) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.retryNow();
    }, DEFERRED_RETRY_MS);
  }

  private async retry(): Promise<void> {
    let done = 0;
    for (const [id, item] of [...this.items]) {
      try {
        await this.index(item);
        this.items.delete(id);
        done++;
      } catch (err) {
        if (isDiskFull(err)) break;
        this.items.delete(id);
        this.log.error(`Could not index photo ${id}`, err);
      }
    }
    if (done > 0) this.log.info(`Space is back: ${done} waiting photo(s) indexed`);
    this.schedule();
  }
}
