import type { Clock, TimerHandle } from './clock.port.js';

interface PendingTimer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A clock that only moves when a test says so. `advance` moves both readings (time passing);
 * `setWall`/`stepWall` move only the wall clock, as an NTP step or a wrong boot time would.
 * Timers, like real ones, follow the monotonic reading.
 */
export class FakeClock implements Clock {
  private current: number;
  private mono = 1_000_000;
  private nextId = 1;
  private pending: PendingTimer[] = [];

  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  monotonic(): number {
    return this.mono;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.pending.push({ id, at: this.mono + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending = this.pending.filter((t) => t.id !== handle.id);
  }

  /** Moves time forward and runs, in order, every timer that falls due. */
  advance(ms: number): void {
    const target = this.mono + ms;
    for (;;) {
      const due = this.pending.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((t) => t.id !== due.id);
      this.current += due.at - this.mono;
      this.mono = due.at;
      due.fn();
    }
    this.current += target - this.mono;
    this.mono = target;
  }

  /** Sets the wall clock without time passing. */
  setWall(at: number): void {
    this.current = at;
  }

  /** Steps the wall clock by `ms` (negative: backwards) without time passing. */
  stepWall(ms: number): void {
    this.current += ms;
  }

  get pendingCount(): number {
    return this.pending.length;
  }
}
