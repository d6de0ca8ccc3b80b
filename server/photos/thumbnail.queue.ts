import type { Logger } from '../core/logger.js';

/** Enough for a whole event; older photos beyond it get their thumbnail when first asked for. */
export const DEFAULT_QUEUE_CAPACITY = 2000;

/**
 * The first screen's thumbnails are made two at a time (both of the store's slots): right after
 * a large index, the next guest's first screen waits for them.
 */
const FIRST_SCREEN_PARALLEL = 2;

interface Pending {
  id: string;
  takenAt: number;
}

/**
 * Makes thumbnails as photos are indexed, ahead of any request, newest first (those are what a
 * gallery opens on). Photos on the current event's first screen go before the others and two at
 * a time; the rest one at a time. The lines are bounded: a burst of captures or a first index of
 * a large folder keeps only the newest, and never holds up the galleries, whose own requests go
 * first (ThumbnailStore).
 */
export class ThumbnailQueue {
  /** Each line newest first. */
  private readonly firstScreen: Pending[] = [];
  private readonly rest: Pending[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private started = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly make: (id: string, firstScreen: boolean) => Promise<void>,
    private readonly log: Logger,
    private readonly capacity = DEFAULT_QUEUE_CAPACITY,
  ) {}

  get size(): number {
    return this.firstScreen.length + this.rest.length;
  }

  push(id: string, takenAt: number, firstScreen = false): void {
    this.drop(id);
    const line = firstScreen ? this.firstScreen : this.rest;
    let lo = 0;
    let hi = line.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((line[mid] as Pending).takenAt >= takenAt) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.capacity) return;
    line.splice(lo, 0, { id, takenAt });
    this.queued.add(id);
    if (line.length > this.capacity) this.queued.delete((line.pop() as Pending).id);
    this.pump();
  }

  drop(id: string): void {
    if (!this.queued.delete(id)) return;
    for (const line of [this.firstScreen, this.rest]) {
      const at = line.findIndex((p) => p.id === id);
      if (at >= 0) line.splice(at, 1);
    }
  }

  start(): void {
    this.started = true;
    this.pump();
  }

  /** Forgets what waits and lets the thumbnails being made finish. */
  async stop(): Promise<void> {
    this.started = false;
    this.firstScreen.length = 0;
    this.rest.length = 0;
    this.queued.clear();
    await Promise.all(this.running);
    this.settleIdle();
  }

  /** Resolves once nothing waits and nothing is being made. */
  idle(): Promise<void> {
    if (this.running.size === 0 && (this.size === 0 || !this.started)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }

  /** The next photo to start now, if any may start. */
  private next(): { item: Pending; firstScreen: boolean } | undefined {
    if (this.firstScreen.length > 0) {
      return this.running.size < FIRST_SCREEN_PARALLEL ? { item: this.firstScreen.shift() as Pending, firstScreen: true } : undefined;
    }
    return this.running.size === 0 && this.rest.length > 0 ? { item: this.rest.shift() as Pending, firstScreen: false } : undefined;
  }

  private pump(): void {
    if (!this.started) return;
    for (let next = this.next(); next; next = this.next()) {
      const { item, firstScreen } = next;
      this.queued.delete(item.id);
      const work: Promise<void> = this.make(item.id, firstScreen)
        .catch((err: unknown) =>
          this.log.warn(`Could not make the thumbnail of photo ${item.id}: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => {
          this.running.delete(work);
          this.pump();
        });
      this.running.add(work);
    }
    if (this.running.size === 0 && this.size === 0) this.settleIdle();
  }
}
