import { crashLoopSeen, guardVerdict, type GuardVerdict } from '../rules/guard.js';
import { roomFor } from '../rules/releases.js';
import { unitRuns } from '../rules/unit-state.js';
import { dataDir, livePort, type Ctx } from './context.js';
import { databaseBytes, freeBytes } from './disk.js';
import { probeHealth } from './health-probe.js';
import { UNIT } from './paths.js';
import { sleep } from './process.js';
import { monotonicMs } from './systemd.js';
import { baseName } from '../rules/names.js';
import { currentLinks, removeRelease, storedReleases } from './release-store.js';

/**
 * The event guard, as the booth is now: /healthz on the live port and the unit's state. While
 * nothing answers but the unit runs (a restart under way, or a crash loop), it looks again for a
 * while (BOOTHDECK_GUARD_GAP_SECONDS) before it decides.
 */
export async function eventGuard(ctx: Ctx, force: boolean): Promise<GuardVerdict> {
  const { settings, systemd } = ctx;
  const port = livePort(ctx.paths);
  let [health, unit] = await Promise.all([probeHealth(port), systemd.show(UNIT)]);
  const first = unit;
  // The monotonic clock: a booth's clock steps at boot (a Pi 4 has no RTC until NTP answers).
  const until = monotonicMs() + settings.guardGapSeconds * 1000;
  while (health.kind === 'nothing-listens' && unit && unitRuns(unit) && monotonicMs() < until && !ctx.signal.aborted) {
    await sleep(1000, ctx.signal);
    [health, unit] = await Promise.all([probeHealth(port), systemd.show(UNIT)]);
  }
  const crashLoop = health.kind === 'nothing-listens' && !!first && !!unit && unitRuns(first) && crashLoopSeen(first, unit);
  const verdict = guardVerdict(
    { port, health, unit, crashLoop },
    { quietMinutes: settings.quietMinutes, eventHours: settings.eventHours },
    force,
  );
  ctx.log.note(verdict.sentence);
  return verdict;
}

/**
 * Room for COPIES copies of a release of SIZE bytes, the database twice (its snapshot and the
 * trial's copy) and the reserve: old releases go first if that makes room (never current or
 * previous). Answers the refusal's sentence, or undefined when there is room.
 */
export async function roomCheck(ctx: Ctx, size: number, copies: number, then: string): Promise<string | undefined> {
  const free = await freeBytes(ctx.paths.root);
  if (free === undefined) {
    ctx.log.note('WARNING: df could not tell the free space: going on');
    return undefined;
  }
  const links = currentLinks(ctx.paths);
  const need = {
    releaseBytes: size,
    copies,
    databaseBytes: databaseBytes(dataDir(ctx.paths)),
    reserveBytes: ctx.settings.reserveMb * 1048576,
  };
  const plan = roomFor(need, free, storedReleases(ctx.paths), {
    current: links.current && baseName(links.current),
    previous: links.previous && baseName(links.previous),
  });
  for (const name of plan.remove) removeRelease(ctx, name, 'room for the new one');
  if (plan.ok) return undefined;
  const mb = (n: number): number => Math.floor(n / 1048576);
  return `REFUSED: not enough free space on the booth: ${mb(plan.free)} MB free in ${ctx.paths.root}, ${mb(plan.needed)} MB needed (the release, the database's snapshot and trial copy, ${ctx.settings.reserveMb} MB to spare). ${then}`;
}
