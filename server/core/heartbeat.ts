import type { Clock, TimerHandle } from './clock/clock.port.js';

/**
 * One timer for many beaters (every open live stream): it runs only while someone has joined,
 * and each beat calls every beater in turn. Two hundred phones cost one timer, not two hundred,
 * and a booth nobody looks at has none.
 */
export class Heartbeat {
  private readonly beaters = new Set<() => void>();
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    readonly everyMs: number,
  ) {}

  /** Calls `beat` at every beat until the returned function is called. */
  join(beat: () => void): () => void {
    this.beaters.add(beat);
    this.arm();
    return () => {
      this.beaters.delete(beat);
      if (this.beaters.size === 0 && this.timer) {
        this.clock.clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  get size(): number {
    return this.beaters.size;
  }

  private arm(): void {
    if (this.timer || this.beaters.size === 0) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      // A beater may leave (its stream closed by the write) while the others are called.
      for (const beat of [...this.beaters]) beat();
      this.arm();
    }, this.everyMs);
  }
}
