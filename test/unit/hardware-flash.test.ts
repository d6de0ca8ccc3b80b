import { setImmediate as flush } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFakeHardware } from '../../native/hardware.js';
import { CaptureLink } from '../../server/capture/capture-link.js';
import type { HardwareSettings } from '../../server/contract/settings.contract.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { CAMERA_SLACK_MS, EVENT_LATE_MS } from '../../server/hardware/flash.controller.js';
import { HardwareService } from '../../server/hardware/hardware.service.js';
import { UNREACHABLE_COLOR } from '../../server/hardware/led-scenes.js';
import { defaultSettings } from '../../server/settings/settings.schema.js';
import { StreamCapture } from '../support/stream-capture.js';

type Patch = { [K in keyof HardwareSettings]?: Partial<HardwareSettings[K]> };
const settingsWith = (patch: Patch = {}): HardwareSettings => {
  const base = structuredClone(defaultSettings.hardware);
  return {
    relay: { ...base.relay, ...patch.relay },
    led: { ...base.led, ...patch.led },
    flash: { ...base.flash, ...patch.flash },
    lux: { ...base.lux, ...patch.lux },
  };
};

async function setup(patch: Patch = {}, lux = 20) {
  const clock = new FakeClock();
  const hardware = createFakeHardware(() => clock.now());
  hardware.lux.lux = lux;
  const capture = new StreamCapture();
  const log = createRecordingLogger();
  const link = new CaptureLink(capture, log);
  link.start();
  const service = new HardwareService(hardware, link, clock, log, settingsWith(patch));
  await service.start(settingsWith(patch));
  /** Moves the clock in small steps so that sensor reads (promises) settle between timers. */
  const run = async (ms: number, step = 10): Promise<void> => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(Math.min(step, ms - t));
      await flush();
    }
  };
  await run(1);
  const state = (source: string, target: string, duration = 3): void =>
    capture.emit({ event: 'ProcessStateinfo', data: { source, target, jobmodel: { typ: 'image', duration } } });
  return { clock, hardware, capture, link, service, log, run, state };
}

describe('relay wiring', () => {
  it('drives an active-low relay low to switch on, and opens it at its off level (high)', async () => {
    const { hardware, service, run } = await setup({ relay: { inverted: true } });
    const relay = hardware.relay;
    expect(relay.history[0]).toMatchObject({ on: false, level: 1 });
    service.testRelay(1000);
    expect(relay.history.at(-1)).toMatchObject({ on: true, level: 0 });
    await run(1000);
    expect(relay.history.at(-1)).toMatchObject({ on: false, level: 1 });
  });
});

describe('pre-flash on the capture app countdown', () => {
  for (const preflash of [0, 1.5, 3]) {
    it(`switches on ${preflash} s (+ 0.5 s for a late event) before the end of a 3 s countdown and off hold_ms after the capture`, async () => {
      const { clock, hardware, run, state } = await setup({ flash: { preflash_seconds: preflash, hold_ms: 500, auto: false } });
      const start = clock.now();
      state('start', 'counting', 3);
      await run(3000);
      state('counting', 'capture');
      expect(hardware.relay.onTimes()).toEqual([Math.max(start, start + 3000 - preflash * 1000 - EVENT_LATE_MS)]);
      await run(499);
      expect(hardware.relay.isOn()).toBe(true);
      await run(1);
      expect(hardware.relay.isOn()).toBe(false);
    });
  }

  it('holds hold_ms after the still even when finished comes right after it', async () => {
    const { clock, hardware, run, state } = await setup({ flash: { preflash_seconds: 1, hold_ms: 800, auto: false } });
    state('start', 'counting', 3);
    await run(3000);
    const stillAnnounced = clock.now();
    state('counting', 'capture');
    await run(10);
    state('capture', 'finished');
    await run(780);
    expect(hardware.relay.isOn()).toBe(true);
    await run(20);
    expect(hardware.relay.isOn()).toBe(false);
    expect(hardware.relay.history.at(-1)?.at).toBe(stillAnnounced + 800);
  });

  it('measures the hold from the still estimated 0.2 s before the end when finished comes without a capture', async () => {
    const { clock, hardware, run, state } = await setup({ flash: { preflash_seconds: 1, hold_ms: 800, auto: false } });
    const start = clock.now();
    state('start', 'counting', 3);
    await run(3100);
    state('capture', 'finished');
    await run(10);
    expect(hardware.relay.isOn()).toBe(true);
    await run(600);
    expect(hardware.relay.isOn()).toBe(false);
    expect(hardware.relay.history.at(-1)?.at).toBe(start + 2800 + 800);
  });

  it('switches off at once when the job ends before its still', async () => {
    const { hardware, run, state } = await setup({ flash: { preflash_seconds: 3, hold_ms: 800, auto: false } });
    state('start', 'counting', 3);
    await run(1000);
    expect(hardware.relay.isOn()).toBe(true);
    state('counting', 'finished');
    expect(hardware.relay.isOn()).toBe(false);
  });

  it('starts at the countdown start when the pre-flash is longer than the countdown', async () => {
    const { clock, hardware, run, state } = await setup({ flash: { preflash_seconds: 3, auto: false } });
    const start = clock.now();
    state('start', 'counting', 2);
    await run(10);
    expect(hardware.relay.onTimes()).toEqual([start]);
  });

  it('switches off at once when the job fails ({} on the stream)', async () => {
    const { hardware, capture, run, state } = await setup({ flash: { preflash_seconds: 2, auto: false } });
    state('start', 'counting', 3);
    await run(1500);
    expect(hardware.relay.isOn()).toBe(true);
    capture.emit({ event: 'ProcessStateinfo', data: {} });
    expect(hardware.relay.isOn()).toBe(false);
  });

  it('has a watchdog: with no capture ever announced, the light goes off after pre-flash + lateness + hold + camera slack', async () => {
    const { clock, hardware, run, service, state } = await setup({ flash: { preflash_seconds: 1, hold_ms: 2000, auto: false } });
    state('start', 'counting', 2);
    await run(500);
    const onAt = clock.now();
    expect(hardware.relay.isOn()).toBe(true);
    const bound = 1000 + EVENT_LATE_MS + 2000 + CAMERA_SLACK_MS;
    await run(bound - 10);
    expect(hardware.relay.isOn()).toBe(true);
    await run(20);
    expect(hardware.relay.isOn()).toBe(false);
    expect(hardware.relay.history.at(-1)?.at).toBe(onAt + bound);
    // The countdown is over for the ring too.
    expect(service.diagnostic().capture.countdown).toBeNull();
  });
});

describe('videos and multi-shot jobs', () => {
  const video = (source: string, target: string, duration = 2, seconds = 10) => ({
    event: 'ProcessStateinfo',
    data: { source, target, jobmodel: { typ: 'video', duration, configuration_set: { processing: { video_duration: seconds } } } },
  });

  it('lights a video until its recording ends, then holds; never past the operator bound', async () => {
    const { hardware, capture, run } = await setup({ flash: { auto: false, preflash_seconds: 1, hold_ms: 500, video_max_seconds: 8 } });
    capture.emit(video('start', 'counting'));
    await run(2000);
    capture.emit(video('counting', 'capture'));
    await run(5000);
    expect(hardware.relay.isOn()).toBe(true);
    // A 10 s recording asks for more than the 8 s bound: the light goes off at the bound, from its pre-flash.
    await run(2000);
    expect(hardware.relay.isOn()).toBe(false);
    const [on, off] = [hardware.relay.onTimes()[0]!, hardware.relay.history.at(-1)!.at];
    expect(off - on).toBe(8000);
  });

  it('goes off hold_ms after the recording ends (capture → completed)', async () => {
    const { clock, hardware, capture, run } = await setup({ flash: { auto: false, hold_ms: 500 } });
    capture.emit(video('start', 'counting', 2, 5));
    await run(2000);
    capture.emit(video('counting', 'capture', 2, 5));
    await run(5000);
    expect(hardware.relay.isOn()).toBe(true);
    const ended = clock.now();
    capture.emit(video('capture', 'completed', 2, 5));
    await run(600);
    expect(hardware.relay.isOn()).toBe(false);
    expect(hardware.relay.history.at(-1)?.at).toBe(ended + 500);
  });

  it('takes videos unlit when the flash does not serve them', async () => {
    const { hardware, capture, run } = await setup({ flash: { auto: false, video_light: false } });
    capture.emit(video('start', 'counting'));
    await run(2000);
    capture.emit(video('counting', 'capture'));
    await run(3000);
    expect(hardware.relay.onTimes()).toEqual([]);
  });

  it("keeps the first still's decision for the whole job, though the sensor then sees the flash", async () => {
    const { hardware, run, state } = await setup({ flash: { auto: true, lux_threshold: 80, preflash_seconds: 1, hold_ms: 500 } }, 20);
    Object.defineProperty(hardware.lux, 'lux', { get: () => (hardware.relay.isOn() ? 5000 : 20) });
    await run(6000, 100);
    state('start', 'counting', 3);
    for (let i = 0; i < 6; i++) {
      await run(i === 0 ? 3000 : 1000, 100);
      state('counting', 'capture');
      if (i < 5) state('capture', 'counting', 1);
    }
    await run(1000);
    // One lit period from the first pre-flash to the last hold: every still was lit.
    expect(hardware.relay.onTimes()).toHaveLength(1);
    // And the flash's own light never entered the room's average.
    state('capture', 'finished');
    state('start', 'counting', 3);
    await run(3000, 100);
    expect(hardware.relay.onTimes()).toHaveLength(2);
  });
});

describe('the decision of a job', () => {
  it('is kept for its later stills: a room that brightens during an approval still gets the flash', async () => {
    const { hardware, run, state } = await setup({ flash: { auto: true, lux_threshold: 80, preflash_seconds: 1, hold_ms: 500 } }, 20);
    await run(6000, 100);
    state('start', 'counting', 2);
    await run(2000, 100);
    state('counting', 'capture');
    state('capture', 'approval');
    hardware.lux.lux = 2000;
    await run(15_000, 100);
    state('approval', 'counting', 1);
    await run(1000, 100);
    state('counting', 'capture');
    expect(hardware.relay.onTimes()).toHaveLength(2);
  });
});

describe('automatic flash from the light', () => {
  it('fires below the threshold and not above it', async () => {
    const dark = await setup({ flash: { auto: true, lux_threshold: 80, preflash_seconds: 1 } }, 20);
    await dark.run(3000);
    expect(dark.service.decision()).toMatchObject({ fire: true, reason: 'dark' });
    dark.state('start', 'counting', 2);
    await dark.run(2000);
    expect(dark.hardware.relay.onTimes()).toHaveLength(1);

    const bright = await setup({ flash: { auto: true, lux_threshold: 80, preflash_seconds: 1 } }, 500);
    await bright.run(3000);
    expect(bright.service.decision()).toMatchObject({ fire: false, reason: 'bright' });
    bright.state('start', 'counting', 2);
    await bright.run(2000);
    bright.state('counting', 'capture');
    await bright.run(1000);
    expect(bright.hardware.relay.onTimes()).toHaveLength(0);
  });

  it('keeps its decision inside the hysteresis band (threshold 80: band 8 lux)', async () => {
    const { hardware, service, run } = await setup({ flash: { auto: true, lux_threshold: 80 } }, 50);
    await run(10_000, 100);
    expect(service.decision().fire).toBe(true);
    hardware.lux.lux = 85; // above the threshold, inside the band
    await run(20_000, 100);
    expect(service.decision()).toMatchObject({ fire: true, reason: 'dark-hold' });
    hardware.lux.lux = 95; // above threshold + band
    await run(20_000, 100);
    expect(service.decision()).toMatchObject({ fire: false, reason: 'bright' });
    hardware.lux.lux = 82; // back inside the band, coming from bright
    await run(20_000, 100);
    expect(service.decision()).toMatchObject({ fire: false, reason: 'bright-hold' });
  });

  it('smooths readings: one bright spike does not change the decision', async () => {
    const { hardware, service, run } = await setup({ flash: { auto: true, lux_threshold: 80 } }, 20);
    await run(10_000, 100);
    hardware.lux.lux = 300;
    await run(1000, 100);
    hardware.lux.lux = 20;
    expect(service.decision().fire).toBe(true);
  });

  it('always fires at the manual brightness without automatic flash', async () => {
    const { service, run } = await setup({ flash: { auto: false, manual_brightness: 65 } }, 5000);
    await run(3000);
    expect(service.decision()).toEqual({ fire: true, reason: 'manual', brightness: 65 });
  });

  it('reports a failing sensor, fires to be safe, and recovers', async () => {
    const { hardware, service, run } = await setup({ flash: { auto: true } }, 500);
    await run(2000);
    hardware.lux.failure = Object.assign(new Error('Remote I/O error'), { code: 'EREMOTEIO' });
    await run(2000);
    const diagnostic = service.diagnostic();
    expect(diagnostic.devices.find((d) => d.device === 'lux')).toMatchObject({ state: 'failed', problem: 'no-sensor' });
    expect(diagnostic.decision).toMatchObject({ fire: true, reason: 'no-reading' });
    expect(diagnostic.lux.samples.at(-1)?.lux).toBeNull();
    hardware.lux.failure = null;
    await run(2000);
    expect(service.diagnostic().lux.current).toBe(500);
  });
});

describe('LED ring', () => {
  it('shows the idle colour at the manual brightness, or nothing when idle mode is off', async () => {
    const { hardware, service } = await setup({ led: { idle_color: '#ff8800', brightness: 40 } });
    expect(hardware.led.current.pixels.every((p) => p.r === 255 && p.g === 136 && p.b === 0)).toBe(true);
    expect(hardware.led.current.brightness).toBeCloseTo(0.4);
    await service.applySettings(settingsWith({ led: { idle_mode: 'off' } }));
    expect(hardware.led.current.brightness).toBe(0);
  });

  it('derives the idle brightness from the light with automatic brightness', async () => {
    const { hardware, service, run } = await setup({ led: { auto_brightness: true } }, 0);
    await run(3000);
    expect(hardware.led.current.brightness).toBeCloseTo(0.1);
    hardware.lux.lux = 1000;
    await run(20_000, 100);
    expect(service.diagnostic().led).toMatchObject({ source: 'auto', brightness: 100 });
    expect(hardware.led.current.brightness).toBeCloseTo(1);
  });

  it('empties the ring during the countdown and flashes white at the capture', async () => {
    const { hardware, run, state } = await setup({ flash: { auto: false, hold_ms: 500 }, led: { idle_color: '#0000ff', count: 16 } });
    await run(10);
    state('start', 'counting', 2);
    await run(1000);
    const lit = hardware.led.current.pixels.filter((p) => p.b > 0).length;
    expect(lit).toBeGreaterThanOrEqual(7);
    expect(lit).toBeLessThanOrEqual(9);
    await run(1000);
    state('counting', 'capture');
    await run(10);
    expect(hardware.led.current.pixels.every((p) => p.r === 255 && p.g === 255 && p.b === 255)).toBe(true);
    await run(600);
    expect(hardware.led.current.pixels[0]).toEqual({ r: 0, g: 0, b: 255 });
  });

  it('pulses a distinct colour while the capture app is unreachable', async () => {
    const { hardware, capture, run } = await setup();
    capture.setState('disconnected');
    await run(1000, 100);
    const pixel = hardware.led.current.pixels[0];
    expect(pixel && pixel.r / pixel.b).toBeCloseTo(UNREACHABLE_COLOR.r / UNREACHABLE_COLOR.b, 1);
    const levels = new Set(hardware.led.frames.slice(-10).map((f) => f.pixels[0]?.b));
    expect(levels.size).toBeGreaterThan(1);
    capture.setState('connected');
    await run(10);
    expect(hardware.led.current.pixels[0]).toEqual({ r: 255, g: 255, b: 255 });
  });
});

describe('settings applied at once', () => {
  it('reopens the relay on a GPIO or wiring change and the ring on a count change, nothing else', async () => {
    const { hardware, service } = await setup();
    const before = hardware.opens.length;
    const oldRelay = hardware.relay;
    await service.applySettings(settingsWith({ relay: { gpio: 27 } }));
    expect(hardware.opens.slice(before)).toEqual([{ device: 'relay', options: { gpio: 27, inverted: false } }]);
    expect(oldRelay.closed).toBe(true);
    await service.applySettings(settingsWith({ relay: { gpio: 27, inverted: true }, led: { count: 24 } }));
    expect(hardware.opens.slice(before + 1).map((o) => o.device)).toEqual(['relay', 'led']);
    expect(hardware.relay.options.inverted).toBe(true);
    expect(hardware.led.current.pixels).toHaveLength(24);
    await service.applySettings(settingsWith({ relay: { gpio: 27, inverted: true }, led: { count: 24, brightness: 90 } }));
    expect(hardware.opens).toHaveLength(before + 3);
  });
});
