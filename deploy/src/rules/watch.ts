import type { HealthProbe, UnitState } from './unit-state.js';
import { describeProbe, describeUnit } from './unit-state.js';

/**
 * After the switch: first the new release must answer (`startStep`), then it must stay up for the
 * watch window (`watchStep`): the unit active and running, its process and restart count as they
 * were when it answered, `/healthz` answering with its version. Any failure rolls back.
 */

export type StartVerdict = { kind: 'waiting' } | { kind: 'answered' } | { kind: 'crashed'; why: string };

/** Once the unit has been started with the new release: has it answered, or died? */
export function startStep(
  baseline: UnitState | undefined,
  unit: UnitState | undefined,
  health: HealthProbe,
  version: string,
): StartVerdict {
  if (health.kind === 'answer' && health.status.version === version) return { kind: 'answered' };
  if (!unit) return { kind: 'waiting' };
  // systemd may count restarts again from 0 after a start by hand: below the count before, it did.
  const before = baseline && unit.restarts >= baseline.restarts ? baseline.restarts : 0;
  if (unit.active === 'failed' || unit.sub === 'auto-restart' || unit.restarts > before) {
    return { kind: 'crashed', why: `the unit died at start (${describeUnit(unit)})` };
  }
  if (unit.active === 'inactive') return { kind: 'crashed', why: `the unit stopped (${describeUnit(unit)})` };
  return { kind: 'waiting' };
}

export interface WatchPolicy {
  windowMs: number;
  /** Health checks failed in a row (the unit still up) that count as a failure: one slow answer on a busy booth does not. */
  healthFailures: number;
}

export interface WatchState {
  /** Monotonic time when the release answered. */
  startedAt: number;
  /** The unit as it was then. */
  baseline: UnitState;
  failuresInRow: number;
}

export type WatchVerdict = { kind: 'continue' } | { kind: 'passed' } | { kind: 'failed'; why: string };

export function watchStep(
  state: WatchState,
  sample: { at: number; unit: UnitState | undefined; health: HealthProbe; port: number },
  version: string,
  policy: WatchPolicy,
): { state: WatchState; verdict: WatchVerdict } {
  const { unit, health } = sample;
  const fail = (why: string): { state: WatchState; verdict: WatchVerdict } => ({ state, verdict: { kind: 'failed', why } });
  if (unit) {
    if (unit.active !== 'active' || unit.sub !== 'running') return fail(`the unit is no longer running (${describeUnit(unit)})`);
    if (unit.restarts > state.baseline.restarts) return fail(`the release died and was restarted (${describeUnit(unit)})`);
    if (state.baseline.mainPid > 0 && unit.mainPid > 0 && unit.mainPid !== state.baseline.mainPid) {
      return fail(`the release's process changed (${state.baseline.mainPid} → ${unit.mainPid}): it was restarted`);
    }
  }
  if (health.kind === 'answer' && health.status.version !== version)
    return fail(`/healthz reports ${health.status.version}, not ${version}`);
  // A look that could not read the unit, or got no answer, counts against the release only when
  // it happens again and again.
  const failures = unit && health.kind === 'answer' ? 0 : state.failuresInRow + 1;
  const next = { ...state, failuresInRow: Math.min(failures, policy.healthFailures) };
  if (failures >= policy.healthFailures) {
    const what = unit ? describeProbe(health, sample.port) : 'systemd could not be asked about the unit';
    return { state: next, verdict: { kind: 'failed', why: `${what}, ${policy.healthFailures} times in a row` } };
  }
  if (sample.at - state.startedAt >= policy.windowMs) return { state: next, verdict: { kind: 'passed' } };
  return { state: next, verdict: { kind: 'continue' } };
}
