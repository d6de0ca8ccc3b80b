import type { Logger } from '../core/logger.js';

/** Enough for a whole event; older photos beyond it get their thumbnail when first asked for. */
export const DEFAULT_QUEUE_CAPACITY = 2000;

interface Pending {
  id: string;
  takenAt: number;
}

/**
 * Makes thumbnails as photos are indexed, ahead of any request, one at a time and newest
 * first (those are what a gallery opens on). The line is bounded: a burst of captures or a first
 * index of a large folder keeps only the newest, and never holds up the galleries, whose own
 * requests go first (ThumbnailStore).
 */
export class ThumbnailQueue {
  /** Newest first. */
  private readonly pending: Pending[] = [];
  private readonly queued = new Set<string>();
  private started = false;
  private current: Promise<void> | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly make: (id: string) => Promise<void>,
    private readonly log: Logger,
    private readonly capacity = DEFAULT_QUEUE_CAPACITY,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  push(id: string, takenAt: number): void {
    this.drop(id);
    let lo = 0;
    let hi = this.pending.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.pending[mid] as Pending).takenAt >= takenAt) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.capacity) return;
    this.pending.splice(lo, 0, { id, takenAt });
    this.queued.add(id);
    if (this.pending.length > this.capacity) this.queued.delete((this.pending.pop() as Pending).id);
    this.pump();
  }

  drop(id: string): void {
    if (!this.queued.delete(id)) return;
    const at = this.pending.findIndex((p) => p.id === id);
    if (at >= 0) this.pending.splice(at, 1);
  }

  start(): void {
    this.started = true;
    this.pump();
  }

  /** Forgets what waits and lets the thumbnail being made finish. */
  async stop(): Promise<void> {
    this.started = false;
    this.pending.length = 0;
    this.queued.clear();
    await this.current;
    this.settleIdle();
  }

  /** Resolves once nothing waits and nothing is being made. */
  idle(): Promise<void> {
    if (!this.current && (this.pending.length === 0 || !this.started)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }

  private pump(): void {
    if (!this.started || this.current) return;
    const next = this.pending.shift();
    if (!next) {
      this.settleIdle();
      return;
    }
    this.queued.delete(next.id);
    this.current = this.make(next.id)
      .catch((err: unknown) =>
        this.log.warn(`Could not make the thumbnail of photo ${next.id}: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        this.current = undefined;
        this.pump();
      });
  }
}
