import { describe, expect, it } from 'vitest';
import type { HealthStatus } from '../../../server/contract/health.contract.js';
import { crashLoopSeen, guardVerdict, type GuardObservation } from '../../../deploy/src/rules/guard.js';
import type { UnitState } from '../../../deploy/src/rules/unit-state.js';

const policy = { quietMinutes: 30, eventHours: 12 };
const status = (over: Partial<HealthStatus> = {}): HealthStatus => ({
  ok: true,
  version: '0.1.0-gaaaaaaa',
  simulator: false,
  event_active: false,
  last_photo_age_seconds: null,
  event_age_seconds: null,
  ...over,
});
const running: UnitState = { active: 'active', sub: 'running', restarts: 0, mainPid: 42 };
const observe = (over: Partial<GuardObservation>): GuardObservation => ({
  port: 8080,
  health: { kind: 'answer', status: status() },
  unit: running,
  crashLoop: false,
  ...over,
});

describe('the event guard', () => {
  it('lets a deploy through on a booth with no event, and says so', () => {
    const v = guardVerdict(observe({}), policy, false);
    expect(v).toMatchObject({ go: true, event: 'idle' });
    expect(v.sentence).toContain('no event under way (no photo in the last 30 min): Boothdeck 0.1.0-gaaaaaaa may be restarted');
  });

  it('defers during an event with a photo in the last 30 minutes, and goes once it is quiet', () => {
    const busy = guardVerdict(
      observe({ health: { kind: 'answer', status: status({ event_active: true, last_photo_age_seconds: 600 }) } }),
      policy,
      false,
    );
    expect(busy).toMatchObject({ go: false, event: 'under-way' });
    expect(busy.sentence).toMatch(/^REFUSED: an event is under way on the booth \(last photo 10 min ago, less than 30 min\)/);
    expect(busy.sentence).toContain('installs the release by itself once the event is over');
    const quiet = guardVerdict(
      observe({ health: { kind: 'answer', status: status({ event_active: true, last_photo_age_seconds: 1800 }) } }),
      policy,
      false,
    );
    expect(quiet).toMatchObject({ go: true, event: 'idle' });
  });

  it('protects an event opened with no photo yet for its first hours (or when the release does not say when it opened)', () => {
    const fresh = status({ event_active: true, event_age_seconds: 600 });
    expect(guardVerdict(observe({ health: { kind: 'answer', status: fresh } }), policy, false).sentence).toContain(
      'an event is open on the booth since 10 min, with no photo yet (less than 12 h)',
    );
    const unknownAge = status({ event_active: true });
    expect(guardVerdict(observe({ health: { kind: 'answer', status: unknownAge } }), policy, false).go).toBe(false);
    const stale = status({ event_active: true, event_age_seconds: 13 * 3600 });
    expect(guardVerdict(observe({ health: { kind: 'answer', status: stale } }), policy, false).go).toBe(true);
  });

  it('fails closed: a slow, odd or failing /healthz defers', () => {
    for (const health of [
      { kind: 'timeout', afterMs: 3000 },
      { kind: 'not-boothdeck' },
      { kind: 'error', message: 'ECONNRESET' },
    ] as const) {
      const v = guardVerdict(observe({ health }), policy, false);
      expect(v, health.kind).toMatchObject({ go: false, event: 'unknown' });
      expect(v.sentence).toContain('cannot tell whether an event is under way');
    }
    expect(guardVerdict(observe({ health: { kind: 'timeout', afterMs: 3000 } }), policy, false).sentence).toContain(
      'did not answer within 3 s',
    );
  });

  it('reads the unit, not only the port: nothing listening while the unit restarts is a gap, not a stopped Boothdeck', () => {
    for (const unit of [
      { active: 'activating', sub: 'start', restarts: 0, mainPid: 7 },
      { active: 'activating', sub: 'auto-restart', restarts: 1, mainPid: 0 },
      running,
    ]) {
      const v = guardVerdict(observe({ health: { kind: 'nothing-listens' }, unit }), policy, false);
      expect(v, unit.sub).toMatchObject({ go: false, event: 'unknown' });
      expect(v.sentence).toContain("Boothdeck's unit is running");
    }
  });

  it('lets a deploy through when nothing listens and the unit is stopped, or no unit is installed yet', () => {
    for (const unit of [
      { active: 'inactive', sub: 'dead', restarts: 0, mainPid: 0 },
      { active: 'failed', sub: 'failed', restarts: 5, mainPid: 0 },
      undefined,
    ]) {
      expect(guardVerdict(observe({ health: { kind: 'nothing-listens' }, unit }), policy, false)).toMatchObject({
        go: true,
        event: 'stopped',
      });
    }
  });

  it('lets a deploy through a crash loop (nothing to protect), and says so', () => {
    const loop = { active: 'activating', sub: 'auto-restart', restarts: 9, mainPid: 0 };
    const v = guardVerdict(observe({ health: { kind: 'nothing-listens' }, unit: loop, crashLoop: true }), policy, false);
    expect(v).toMatchObject({ go: true, crashLoop: true, event: 'unknown' });
    expect(v.sentence).toContain('the running release keeps dying');
  });

  it('force restarts anyway, and says it was forced and why', () => {
    const v = guardVerdict(
      observe({ health: { kind: 'answer', status: status({ event_active: true, last_photo_age_seconds: 300 }) } }),
      policy,
      true,
    );
    expect(v).toMatchObject({ go: true, event: 'under-way' });
    expect(v.sentence).toMatch(/^FORCED: an event is under way on the booth \(last photo 5 min ago.*will be restarted anyway$/);
  });

  it('sees a crash loop in restarts that pile up or a unit that gave up, not in a unit that runs on', () => {
    const first = { active: 'activating', sub: 'auto-restart', restarts: 3, mainPid: 0 };
    expect(crashLoopSeen(first, { ...first, restarts: 4 })).toBe(true);
    expect(crashLoopSeen(first, { ...first, active: 'failed', sub: 'failed' })).toBe(true);
    expect(crashLoopSeen(first, { active: 'activating', sub: 'start', restarts: 3, mainPid: 9 })).toBe(false);
  });
});
