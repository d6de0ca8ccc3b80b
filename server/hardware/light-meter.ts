import type { FlashDecision, LuxPoint } from '../contract/hardware.contract.js';

/** Weight of a new reading in the running average: at one reading a second, about 3 s to follow a change. */
const SMOOTHING = 0.3;
/** Readings whose median feeds the average: a lone spike (a guest's phone torch) is ignored. */
const MEDIAN_OF = 5;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** The band above the threshold in which the flash keeps its last decision, so it does not flap. */
export const hysteresisBand = (threshold: number): number => Math.max(2, threshold * 0.1);

/**
 * Lux readings smoothed (median of the last five, then an exponential moving average), with a
 * bounded history for the chart.
 * A failed reading is kept as a gap and does not move the average.
 */
export class LightMeter {
  private readonly points: LuxPoint[] = [];
  private average: number | null = null;
  private lastRaw: number | null = null;
  private readonly recent: number[] = [];

  constructor(private readonly keepMs = 5 * 60_000) {}

  add(at: number, lux: number): void {
    this.recent.push(lux);
    if (this.recent.length > MEDIAN_OF) this.recent.shift();
    const filtered = median(this.recent);
    this.average = this.average === null ? filtered : this.average + SMOOTHING * (filtered - this.average);
    this.lastRaw = lux;
    this.push({ t: at, lux, smoothed: this.average });
  }

  fail(at: number): void {
    this.lastRaw = null;
    this.average = null;
    this.recent.length = 0;
    this.push({ t: at, lux: null, smoothed: null });
  }

  get current(): number | null {
    return this.lastRaw;
  }

  get smoothed(): number | null {
    return this.average;
  }

  samples(since = -Infinity): LuxPoint[] {
    return this.points.filter((p) => p.t > since);
  }

  private push(point: LuxPoint): void {
    this.points.push(point);
    const oldest = point.t - this.keepMs;
    while (this.points.length > 0 && (this.points[0]?.t ?? 0) < oldest) this.points.shift();
  }
}

export interface FlashSettingsView {
  auto: boolean;
  lux_threshold: number;
  manual_brightness: number;
}

/** Dark below the threshold, bright above threshold + band; in between, whatever it was. */
export class FlashDecider {
  private dark: boolean | null = null;

  decide(flash: FlashSettingsView, smoothed: number | null): FlashDecision {
    if (!flash.auto) return { fire: true, reason: 'manual', brightness: flash.manual_brightness };
    if (smoothed === null) {
      this.dark = null;
      return { fire: true, reason: 'no-reading', brightness: 100 };
    }
    const threshold = flash.lux_threshold;
    let reason: FlashDecision['reason'];
    if (smoothed < threshold) {
      this.dark = true;
      reason = 'dark';
    } else if (smoothed > threshold + hysteresisBand(threshold)) {
      this.dark = false;
      reason = 'bright';
    } else {
      // First reading inside the band: at or above the threshold counts as bright.
      this.dark ??= false;
      reason = this.dark ? 'dark-hold' : 'bright-hold';
    }
    return { fire: this.dark, reason, brightness: this.dark ? flashBrightness(smoothed, threshold) : 0 };
  }
}

/** The ring's capture flash in automatic mode: full in the dark, half at the threshold. */
export function flashBrightness(lux: number, threshold: number): number {
  if (threshold <= 0) return 100;
  return Math.round(Math.min(100, Math.max(50, 100 - (50 * lux) / threshold)));
}

/**
 * The ring's idle brightness in automatic mode, like a screen's: dim in a dark room (10 % at
 * 0 lux), brighter as the room is lit (70 % at 100 lux, full from 1000 lux).
 */
export function autoLedBrightness(lux: number | null): number {
  if (lux === null) return 50;
  return Math.round(Math.min(100, Math.max(10, 10 + 30 * Math.log10(1 + Math.max(0, lux)))));
}
