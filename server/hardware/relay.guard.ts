import type { RelayPort } from '../../native/relay/relay.port.js';
import type { RelayLimits } from '../contract/hardware.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';

/** The longest relay test a person may ask for; a test must hold exactly that long. */
export const RELAY_TEST_MAX_MS = 5000;
/**
 * The share of any window the lamps may be lit: they heat, and a relay wears. The window is long
 * enough for the longest job a booth lights whole: six stills from a 3 s camera (about 24 s).
 */
export const DUTY_WINDOW_MS = 60_000;
export const DUTY_RATIO = 0.5;
/**
 * An "on" that follows an "off" closer than this continues the same lit period: a light
 * switched off and on again every 300 ms is, for the lamp, on all along.
 */
export const MERGE_GAP_MS = 1000;
/** Below this much budget a switch-on would only flicker: it is refused. */
const MIN_BUDGET_MS = 50;

interface Period {
  start: number;
  end: number;
}

/** What one switch-on asks beyond its duration. */
export interface OnRequest {
  /**
   * Starts a new bounded segment inside the lit period: a still that follows a still already taken
   * gets its own bound instead of the rest of the previous one's. The caller grants it only then.
   */
  rearm?: boolean;
  /** The segment's bound when it starts here (default: `maxOnMs()`). */
  boundMs?: number;
}

/**
 * Every switch of the flash relay goes through here, whoever asks (test buttons, countdowns,
 * captures announced by the capture app). Each "on" comes with how long it may last; the guard
 * switches off at that time or earlier, at the bound of the current segment or when the duty
 * budget of the window is spent. A segment starts with the lit period and runs from its first
 * "on"; a later "on" continues it, unless it re-arms it (a new still of a multi-shot job, which
 * the flash controller grants once per still taken). All on the monotonic clock: setting the wall
 * clock moves none of it.
 */
export class RelayGuard {
  private since: number | null = null;
  /** The current segment of the lit period (it outlives a quick off-on, as the period does). */
  private segment: { start: number; bound: number } | null = null;
  private cut: TimerHandle | undefined;
  private periods: Period[] = [];
  private refusedLogged = false;

  constructor(
    private readonly relay: () => RelayPort,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** The longest one lit period may last now (depends on the pre-flash and hold settings). */
    private readonly maxOnMs: () => number,
    /** Told when a bound (not the time asked) switched the light off, so that what relied on it can follow. */
    private readonly onCut: () => void = () => undefined,
  ) {}

  /**
   * Light on for at most `ms` from now, within the bounds. Returns false, and leaves the light
   * off, when the window's budget is spent or the lit period already reached its bound.
   */
  on(ms: number, request: OnRequest = {}): boolean {
    const now = this.clock.monotonic();
    const wasLit = this.since !== null;
    const previousSegment = this.segment;
    let reopened: Period | undefined;
    if (this.since === null) {
      const last = this.periods.at(-1);
      // A quick off-on continues the period that just ended: its start still counts.
      if (last && now - last.end < MERGE_GAP_MS) reopened = this.periods.pop();
      this.since = reopened ? reopened.start : now;
    }
    const fresh = !wasLit && !reopened;
    if (fresh || request.rearm || !this.segment) this.segment = { start: now, bound: request.boundMs ?? this.maxOnMs() };
    const asked = now + Math.max(0, ms);
    const until = Math.min(asked, this.segment.start + this.segment.bound, now + this.budgetLeft(now));
    if (until - now < MIN_BUDGET_MS) {
      this.segment = previousSegment;
      if (reopened) this.periods.push(reopened);
      if (!wasLit) this.since = null;
      else this.off();
      if (!this.refusedLogged) this.log.warn('Flash relay resting: its on-time bound is reached; the light stays off for now');
      this.refusedLogged = true;
      return false;
    }
    this.refusedLogged = false;
    this.arm(until - now, until < asked);
    this.write(true);
    return true;
  }

  off(): void {
    if (this.cut) this.clock.clearTimeout(this.cut);
    this.cut = undefined;
    if (this.since !== null) this.closePeriod(this.clock.monotonic());
    this.write(false);
  }

  get isOn(): boolean {
    return this.relay().isOn();
  }

  limits(): Omit<RelayLimits, 'video_max_ms'> {
    const now = this.clock.monotonic();
    return {
      max_on_ms: this.maxOnMs(),
      duty_window_ms: DUTY_WINDOW_MS,
      duty_max_on_ms: DUTY_WINDOW_MS * DUTY_RATIO,
      budget_ms: Math.round(this.budgetLeft(now)),
    };
  }

  private arm(ms: number, bounded: boolean): void {
    if (this.cut) this.clock.clearTimeout(this.cut);
    this.cut = this.clock.setTimeout(() => {
      this.cut = undefined;
      const start = this.since;
      this.off();
      if (!bounded) return;
      if (start !== null) this.log.warn(`Flash relay switched off by its bound after ${Math.round(this.clock.monotonic() - start)} ms`);
      this.onCut();
    }, ms);
  }

  private closePeriod(end: number): void {
    if (this.since === null) return;
    if (end > this.since) this.periods.push({ start: this.since, end });
    this.since = null;
  }

  /** On-time left in the window ending now, the lit period in progress included. */
  private budgetLeft(now: number): number {
    const from = now - DUTY_WINDOW_MS;
    this.periods = this.periods.filter((p) => p.end > from);
    let used = 0;
    for (const p of this.periods) used += p.end - Math.max(p.start, from);
    if (this.since !== null) used += now - Math.max(this.since, from);
    return Math.max(0, DUTY_WINDOW_MS * DUTY_RATIO - used);
  }

  private write(on: boolean): void {
    const relay = this.relay();
    if (relay.isOn() === on) return;
    relay.set(on).catch((err: unknown) => this.log.error(`Relay switch ${on ? 'on' : 'off'} failed`, err));
  }
}
