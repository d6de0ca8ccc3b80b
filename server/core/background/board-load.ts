import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface BoardLoadOptions {
  /** The kernel's pressure-stall information for the CPU; tests give a file of their own. */
  pressureFile?: string;
  cores?: number;
  /** The load average's first figure, when pressure information is missing (kernels without PSI). */
  loadAverage?: () => number;
  /**
   * The firmware's throttling bits, as `vcgencmd get_throttled` prints them, from the Raspberry Pi
   * kernel's own sysfs file: read without starting a process. Missing elsewhere: never throttled.
   */
  throttledFile?: string;
  /** Monotonic milliseconds. */
  now: () => number;
  /** Most background workers at once on a calm board. */
  max?: number;
}

/** Readings are this fresh at most: the file is read when work starts, never on a timer. */
const PRESSURE_FRESH_MS = 1000;
/** Throttling changes with the board's temperature and supply: read this often at most, only while work waits. */
const THROTTLE_FRESH_MS = 10_000;
const THROTTLED_FILE = '/sys/devices/platform/soc/soc:firmware/get_throttled';
/** Bits 1 to 3 of get_throttled: frequency capped, throttled, soft temperature limit, now. */
const THROTTLED_NOW = 0b1110;
/** Share of the last 10 s in which something runnable waited for a CPU (PSI `some avg10`, %). */
const CALM_BELOW = 20;

/** `some avg10=…` of /proc/pressure/cpu, in percent; undefined where the file says nothing. */
export function parseCpuPressure(text: string): number | undefined {
  const match = /^some\b.*?\bavg10=(\d+(?:\.\d+)?)/m.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * How many background workers the board can take now: all of `max` on a calm board, one once
 * something waits for a processor (the capture app rendering its preview, Chromium, guests'
 * requests) or the board is throttled. Never zero: the workers run at the lowest priority, so one
 * of them only ever takes what nothing else wants, and thumbnails keep coming.
 */
export class BoardLoad {
  private readonly cores: number;
  private readonly max: number;
  private pressureAt = -Infinity;
  private busy = false;
  private throttleAt = -Infinity;
  private throttledNow = false;

  constructor(private readonly options: BoardLoadOptions) {
    this.cores = options.cores ?? os.availableParallelism();
    this.max = Math.max(1, options.max ?? Math.min(2, this.cores));
  }

  /** Workers allowed now. */
  limit(): number {
    this.sample();
    return this.busy || this.throttledNow ? 1 : this.max;
  }

  /** What was last seen, for the log and the bench. */
  describe(): string {
    return `${this.busy ? 'busy' : 'calm'}${this.throttledNow ? ', throttled' : ''}, up to ${this.max} worker(s)`;
  }

  private sample(): void {
    const now = this.options.now();
    if (now - this.pressureAt >= PRESSURE_FRESH_MS) {
      this.pressureAt = now;
      this.busy = this.readBusy();
    }
    if (now - this.throttleAt >= THROTTLE_FRESH_MS) {
      this.throttleAt = now;
      this.throttledNow = this.readThrottled();
    }
  }

  private readThrottled(): boolean {
    try {
      const bits = Number.parseInt(readFileSync(this.options.throttledFile ?? THROTTLED_FILE, 'utf8').trim(), 16);
      return Number.isInteger(bits) && (bits & THROTTLED_NOW) !== 0;
    } catch {
      return false;
    }
  }

  private readBusy(): boolean {
    let pressure: number | undefined;
    try {
      pressure = parseCpuPressure(readFileSync(this.options.pressureFile ?? '/proc/pressure/cpu', 'utf8'));
    } catch {
      pressure = undefined;
    }
    if (pressure !== undefined) return pressure >= CALM_BELOW;
    const load = (this.options.loadAverage ?? (() => os.loadavg()[0] ?? 0))();
    return load / this.cores >= 0.75;
  }
}
