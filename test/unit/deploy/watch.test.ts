import { describe, expect, it } from 'vitest';
import type { HealthProbe, UnitState } from '../../../deploy/src/rules/unit-state.js';
import { startStep, watchStep, type WatchState } from '../../../deploy/src/rules/watch.js';

const V = '0.1.0-gbbbbbbb';
const answer = (version = V): HealthProbe => ({
  kind: 'answer',
  status: { ok: true, version, simulator: false, event_active: false, last_photo_age_seconds: null, event_age_seconds: null },
});
const up: UnitState = { active: 'active', sub: 'running', restarts: 0, mainPid: 100 };
const policy = { windowMs: 60_000, healthFailures: 3 };
const begin: WatchState = { startedAt: 1_000, baseline: up, failuresInRow: 0 };

/** Feeds samples one by one, from begin, until a verdict other than continue. */
function run(samples: { at: number; unit?: UnitState | undefined; health?: HealthProbe }[]): { verdict: string; why?: string; at: number } {
  let state = begin;
  for (const s of samples) {
    const r = watchStep(state, { at: s.at, unit: 'unit' in s ? s.unit : up, health: s.health ?? answer(), port: 8080 }, V, policy);
    state = r.state;
    if (r.verdict.kind !== 'continue')
      return { verdict: r.verdict.kind, why: r.verdict.kind === 'failed' ? r.verdict.why : undefined, at: s.at };
  }
  return { verdict: 'continue', at: samples.at(-1)!.at };
}

describe('after the switch: the start, then the watch window', () => {
  it('waits while the release starts, succeeds on its version, and sees a crash at once from the unit', () => {
    const starting = { active: 'activating', sub: 'start', restarts: 0, mainPid: 5 };
    expect(startStep(up, starting, { kind: 'nothing-listens' }, V)).toEqual({ kind: 'waiting' });
    expect(startStep(up, up, answer(), V)).toEqual({ kind: 'answered' });
    // Another version answering is not the new release (the trial's twin, a stale instance): wait.
    expect(startStep(up, up, answer('0.1.0-gaaaaaaa'), V)).toEqual({ kind: 'waiting' });
    expect(startStep(up, { active: 'activating', sub: 'auto-restart', restarts: 1, mainPid: 0 }, { kind: 'nothing-listens' }, V).kind).toBe(
      'crashed',
    );
    expect(startStep(up, { active: 'failed', sub: 'failed', restarts: 0, mainPid: 0 }, { kind: 'nothing-listens' }, V).kind).toBe(
      'crashed',
    );
    expect(startStep(up, { active: 'active', sub: 'running', restarts: 2, mainPid: 9 }, { kind: 'nothing-listens' }, V)).toMatchObject({
      kind: 'crashed',
      why: 'the unit died at start (active/running, restarted 2 times)',
    });
    // The count before the start was 5 (an earlier crash loop), systemd counted again from 0: one restart is one.
    expect(startStep({ ...up, restarts: 5 }, { ...up, restarts: 1 }, { kind: 'nothing-listens' }, V).kind).toBe('crashed');
    expect(startStep({ ...up, restarts: 5 }, { ...up, restarts: 0 }, { kind: 'nothing-listens' }, V).kind).toBe('waiting');
  });

  it('passes a release that stays up for the whole window, not a moment before', () => {
    const samples = Array.from({ length: 31 }, (_, i) => ({ at: 1_000 + i * 2_000 }));
    expect(run(samples.slice(0, 30))).toMatchObject({ verdict: 'continue' });
    expect(run(samples)).toMatchObject({ verdict: 'passed', at: 61_000 });
  });

  it('rolls back a release that dies 8 s after it answers: the unit restarted it', () => {
    const r = run([
      { at: 3_000 },
      { at: 5_000 },
      { at: 7_000 },
      { at: 9_000, unit: { active: 'activating', sub: 'auto-restart', restarts: 1, mainPid: 0 }, health: { kind: 'nothing-listens' } },
    ]);
    expect(r).toMatchObject({ verdict: 'failed', at: 9_000 });
    expect(r.why).toContain('the unit is no longer running (activating/auto-restart, restarted 1 times)');
  });

  it('sees a restart that happened between two looks: the restart count, or a new process', () => {
    expect(run([{ at: 3_000, unit: { ...up, restarts: 1, mainPid: 200 } }]).why).toContain('the release died and was restarted');
    expect(run([{ at: 3_000, unit: { ...up, mainPid: 200 } }]).why).toContain("the release's process changed (100 → 200)");
  });

  it('forgives one slow /healthz on a busy booth, not three in a row', () => {
    const slow = { health: { kind: 'timeout', afterMs: 10_000 } as HealthProbe };
    expect(run([{ at: 3_000, ...slow }, { at: 5_000 }, { at: 7_000, ...slow }, { at: 9_000, ...slow }, { at: 11_000 }])).toMatchObject({
      verdict: 'continue',
    });
    const r = run([
      { at: 3_000, ...slow },
      { at: 5_000, ...slow },
      { at: 7_000, ...slow },
    ]);
    expect(r).toMatchObject({ verdict: 'failed', at: 7_000 });
    expect(r.why).toBe('/healthz on port 8080 did not answer within 10 s (a busy booth?), 3 times in a row');
  });

  it('counts a unit systemd cannot be asked about like a missed answer', () => {
    expect(
      run([
        { at: 3_000, unit: undefined },
        { at: 5_000, unit: undefined },
        { at: 7_000, unit: undefined },
      ]).why,
    ).toBe('systemd could not be asked about the unit, 3 times in a row');
  });

  it('fails at once when another version answers on the live port', () => {
    expect(run([{ at: 3_000, health: answer('0.1.0-gaaaaaaa') }]).why).toBe('/healthz reports 0.1.0-gaaaaaaa, not 0.1.0-gbbbbbbb');
  });
});
