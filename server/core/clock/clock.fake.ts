import type { Clock, TimerHandle } from './clock.port.js';

interface PendingTimer {
  id: number;
  at: number;
  fn: () => void;
}

/** A clock that only moves when a test says so. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private pending: PendingTimer[] = [];

  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.pending.push({ id, at: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending = this.pending.filter((t) => t.id !== handle.id);
  }

  /** Moves time forward and runs, in order, every timer that falls due. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.pending.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((t) => t.id !== due.id);
      this.current = due.at;
      due.fn();
    }
    this.current = target;
  }

  get pendingCount(): number {
    return this.pending.length;
  }
}
