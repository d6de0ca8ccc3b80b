import { setImmediate as flush } from 'node:timers/promises';
import { createFakeHardware } from '../../native/hardware.js';
import type { RelayChange } from '../../native/relay/relay.fake.js';
import { CaptureLink } from '../../server/capture/capture-link.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { HardwareSettings } from '../../server/contract/settings.contract.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { HardwareService } from '../../server/hardware/hardware.service.js';
import { defaultSettings } from '../../server/settings/settings.schema.js';

/**
 * The hardware service on fake hardware and a fake clock, following a fake capture app (the one
 * given, or a plain one), with the flash settings given (automatic flash off). `run` moves time
 * on in small steps, letting the service's timers and promises act at each.
 */
export async function relayRig<C extends FakeCaptureApp = FakeCaptureApp>(
  flash: Partial<HardwareSettings['flash']> = {},
  capture: C = new FakeCaptureApp() as C,
) {
  const clock = new FakeClock();
  // The relay's record is kept on the monotonic reading: a wall-clock step must not blur it.
  const hardware = createFakeHardware(() => clock.monotonic());
  const log = createRecordingLogger();
  const link = new CaptureLink(capture, log);
  link.start();
  const settings = structuredClone(defaultSettings.hardware);
  settings.flash = { ...settings.flash, auto: false, ...flash };
  const service = new HardwareService(hardware, link, clock, log, settings);
  await service.start(settings);
  const run = async (ms: number, step = 10): Promise<void> => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(Math.min(step, ms - t));
      await flush();
    }
  };
  const stop = async (): Promise<void> => {
    await service.stop();
    link.stop();
  };
  return { clock, hardware, capture, service, run, stop };
}

/** The lit periods of a relay's record, [start, end) in ms. */
export function litPeriods(history: readonly RelayChange[], end: number): [number, number][] {
  const out: [number, number][] = [];
  let since: number | null = null;
  for (const c of history) {
    if (c.on && since === null) since = c.at;
    if (!c.on && since !== null) {
      out.push([since, c.at]);
      since = null;
    }
  }
  if (since !== null) out.push([since, end]);
  return out;
}

/** Joins periods separated by less than `gap` ms: to a lamp, a blink off is still on. */
export const mergedPeriods = (list: [number, number][], gap: number): [number, number][] =>
  list.reduce<[number, number][]>((acc, [s, e]) => {
    const last = acc.at(-1);
    if (last && s - last[1] < gap) last[1] = e;
    else acc.push([s, e]);
    return acc;
  }, []);

/** The most on-time any window of `window` ms holds (windows ending at each switch-off). */
export function worstWindow(list: [number, number][], window: number): number {
  let worst = 0;
  for (const [, end] of list) {
    const from = end - window;
    worst = Math.max(
      worst,
      list.reduce((sum, [s, e]) => sum + Math.max(0, Math.min(e, end) - Math.max(s, from)), 0),
    );
  }
  return worst;
}
