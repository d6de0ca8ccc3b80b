import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CaptureEvent } from '../capture/capture.types.js';

/** Events waiting at most; past this a burst is dropped and a rescan catches up with it. */
export const MAX_QUEUED_EVENTS = 50_000;
/** Events handled between two turns given back to the event loop. */
const BATCH = 32;

/**
 * The capture app's live events, handled one after the other in their order, giving the event
 * loop back every few: a burst of 20,000 DbInsert is worked through while /healthz, galleries
 * and streams keep answering. A burst past MAX_QUEUED_EVENTS is not kept: `onOverflow` (a
 * rescan) finds its photos in the media folder instead.
 */
export class LiveEvents {
  private queue: CaptureEvent[] = [];
  private head = 0;
  private draining: Promise<void> | undefined;
  private overflowed = false;

  constructor(
    private readonly handle: (event: CaptureEvent) => Promise<void>,
    private readonly onOverflow: () => void,
  ) {}

  get waiting(): number {
    return this.queue.length - this.head;
  }

  push(event: CaptureEvent): void {
    if (this.waiting >= MAX_QUEUED_EVENTS) this.overflowed = true;
    else this.queue.push(event);
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  /** Resolves once every event received so far has been handled. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  clear(): void {
    this.queue = [];
    this.head = 0;
  }

  private async drain(): Promise<void> {
    await nextTurn();
    let handled = 0;
    while (this.head < this.queue.length) {
      const event = this.queue[this.head++] as CaptureEvent;
      await this.handle(event);
      if (++handled % BATCH === 0) await nextTurn();
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
    }
    this.clear();
    if (this.overflowed) {
      this.overflowed = false;
      this.onOverflow();
    }
  }
}
