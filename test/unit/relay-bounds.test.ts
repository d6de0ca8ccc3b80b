import { describe, expect, it } from 'vitest';
import type { HardwareSettings } from '../../server/contract/settings.contract.js';
import { ConflictError } from '../../server/core/errors.js';
import { DUTY_RATIO, DUTY_WINDOW_MS, RELAY_TEST_MAX_MS } from '../../server/hardware/relay.guard.js';
import { litPeriods, mergedPeriods, relayRig, worstWindow } from '../support/relay-rig.js';

/** The rig, and a button pressed every `every` ms for `total` ms; refusals (409) are counted, not thrown. */
async function rig(flash: Partial<HardwareSettings['flash']> = {}) {
  const r = await relayRig(flash);
  const flood = async (press: () => void, every: number, total: number): Promise<{ refused: number }> => {
    let refused = 0;
    for (let t = 0; t < total; t += every) {
      try {
        press();
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err;
        expect(err.code).toBe('relay_resting');
        refused++;
      }
      await r.run(every);
    }
    return { refused };
  };
  return { ...r, flood };
}

describe('the flash relay keeps its bounds whatever asks', () => {
  it('holds a 5 s relay test exactly 5 s (defaults: pre-flash 1 s, hold 500 ms)', async () => {
    const { clock, hardware, service, run } = await rig();
    const start = clock.monotonic();
    service.testRelay(RELAY_TEST_MAX_MS);
    await run(RELAY_TEST_MAX_MS + 1000);
    expect(litPeriods(hardware.relay.history, clock.monotonic())).toEqual([[start, start + RELAY_TEST_MAX_MS]]);
  });

  it('is not held on by the test button pressed every 2 s with 5 s asked', async () => {
    const { clock, hardware, service, flood } = await rig();
    const { refused } = await flood(() => service.testRelay(5000), 2000, 90_000);
    const lit = litPeriods(hardware.relay.history, clock.monotonic());
    const longest = Math.max(...mergedPeriods(lit, 1000).map(([s, e]) => e - s));
    expect(longest).toBeLessThanOrEqual(service.diagnostic().relay.limits.max_on_ms);
    expect(worstWindow(lit, DUTY_WINDOW_MS)).toBeLessThanOrEqual(DUTY_WINDOW_MS * DUTY_RATIO);
    expect(refused).toBeGreaterThan(0);
  });

  it('is not held on by the flash test every 200 ms', async () => {
    const { clock, hardware, service, flood } = await rig({ hold_ms: 2000 });
    await flood(() => service.testFlash(), 200, 60_000);
    const lit = litPeriods(hardware.relay.history, clock.monotonic());
    expect(Math.max(...mergedPeriods(lit, 1000).map(([s, e]) => e - s))).toBeLessThanOrEqual(service.diagnostic().relay.limits.max_on_ms);
    expect(worstWindow(lit, DUTY_WINDOW_MS)).toBeLessThanOrEqual(DUTY_WINDOW_MS * DUTY_RATIO);
  });

  it('is not held on by the capture app announcing a countdown every 300 ms, flash forced', async () => {
    const { clock, hardware, capture, service, flood } = await rig({ preflash_seconds: 3 });
    const countdown = (): void =>
      capture.emit({ event: 'ProcessStateinfo', data: { source: 'start', target: 'counting', jobmodel: { typ: 'image', duration: 2 } } });
    await flood(countdown, 300, 60_000);
    const lit = litPeriods(hardware.relay.history, clock.monotonic());
    const longest = Math.max(...mergedPeriods(lit, 1000).map(([s, e]) => e - s));
    expect(longest).toBeLessThanOrEqual(service.diagnostic().relay.limits.max_on_ms);
    expect(worstWindow(lit, DUTY_WINDOW_MS)).toBeLessThanOrEqual(DUTY_WINDOW_MS * DUTY_RATIO);
    const onTime = lit.reduce((sum, [s, e]) => sum + e - s, 0);
    expect(onTime / 60_000).toBeLessThanOrEqual(DUTY_RATIO + 0.05);
  });

  // A still taken grants the next still a bound of its own: a stream of stills or videos, hostile
  // or broken, is then held by the duty cycle alone, videos (30 s each) included.
  for (const [what, cycle] of [
    ['a still every 300 ms (countdown, then capture at once)', ['start:counting', 'counting:capture']],
    ['a 30 s video every 2 s (countdown, recording, completed)', ['start:counting', 'counting:capture', 'capture:completed']],
  ] as const) {
    it(`keeps its duty cycle against the capture app announcing ${what}, flash forced`, async () => {
      const { clock, hardware, capture, flood } = await rig({ preflash_seconds: 3, video_max_seconds: 30 });
      const typ = cycle.length === 3 ? 'video' : 'image';
      let step = 0;
      const next = (): void => {
        const [source, target] = cycle[step++ % cycle.length]!.split(':') as [string, string];
        const jobmodel = { typ, duration: 0, configuration_set: { processing: { video_duration: 30 } } };
        capture.emit({ event: 'ProcessStateinfo', data: { source, target, jobmodel } });
      };
      await flood(next, typ === 'video' ? 2000 / 3 : 150, 180_000);
      const lit = litPeriods(hardware.relay.history, clock.monotonic());
      expect(worstWindow(lit, DUTY_WINDOW_MS)).toBeLessThanOrEqual(DUTY_WINDOW_MS * DUTY_RATIO);
      const onTime = lit.reduce((sum, [s, e]) => sum + e - s, 0);
      expect(onTime / 180_000).toBeLessThanOrEqual(DUTY_RATIO + 0.05);
      // And lit again after each rest: the stream is capped, not ignored.
      expect(onTime).toBeGreaterThan(DUTY_WINDOW_MS * DUTY_RATIO);
    });
  }

  it('ends a relay test on time when the wall clock is set back during it', async () => {
    const { clock, hardware, service, run } = await rig();
    const start = clock.monotonic();
    service.testRelay(3000);
    await run(1000);
    clock.stepWall(-2 * 3600_000);
    await run(2500);
    expect(litPeriods(hardware.relay.history, clock.monotonic())).toEqual([[start, start + 3000]]);
  });

  it('reports its bounds and what is left for the hardware page', async () => {
    const { service, run } = await rig();
    // Defaults: pre-flash 1 s, hold 500 ms; a still may keep the light 1 + 0.5 (late event) + 0.5 + 4 (camera) s.
    expect(service.diagnostic().relay.limits).toEqual({
      max_on_ms: 6000,
      video_max_ms: 20_000,
      duty_window_ms: DUTY_WINDOW_MS,
      duty_max_on_ms: DUTY_WINDOW_MS * DUTY_RATIO,
      budget_ms: DUTY_WINDOW_MS * DUTY_RATIO,
    });
    service.testRelay(2000);
    await run(2000);
    expect(service.diagnostic().relay.limits.budget_ms).toBe(DUTY_WINDOW_MS * DUTY_RATIO - 2000);
  });
});
