import type { HealthStatus } from '../../../server/contract/health.contract.js';

/** What `systemctl --user show` says of Boothdeck's unit. */
export interface UnitState {
  /** ActiveState: active, activating, deactivating, reloading, inactive, failed. */
  active: string;
  /** SubState: running, auto-restart, dead, start, stop-sigterm, … */
  sub: string;
  /** NRestarts: the automatic restarts since the unit was last started by hand. */
  restarts: number;
  /** ExecMainPID: the release's process (0 when none). */
  mainPid: number;
}

/** One look at `/healthz` on a port. */
export type HealthProbe =
  | { kind: 'answer'; status: HealthStatus }
  /** Something answered, but not a Boothdeck's health answer. */
  | { kind: 'not-boothdeck' }
  /** Nothing listens on the port (connection refused). */
  | { kind: 'nothing-listens' }
  /** No answer within the time limit. */
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'error'; message: string };

/**
 * The unit runs a release, or is about to (restarting after an exit counts): a port that does not
 * answer then is a gap, not a stopped Boothdeck.
 */
export const unitRuns = (unit: UnitState): boolean =>
  ['active', 'activating', 'deactivating', 'reloading'].includes(unit.active) || unit.sub === 'auto-restart';

export const describeUnit = (unit: UnitState): string => `${unit.active}/${unit.sub}, restarted ${unit.restarts} times`;

/** The probe in words, for the log. */
export function describeProbe(probe: HealthProbe, port: number): string {
  switch (probe.kind) {
    case 'answer':
      return `Boothdeck ${probe.status.version} answers on port ${port}`;
    case 'not-boothdeck':
      return `/healthz on port ${port} is not the answer of a Boothdeck`;
    case 'nothing-listens':
      return `nothing listens on port ${port}`;
    case 'timeout':
      return `/healthz on port ${port} did not answer within ${Math.round(probe.afterMs / 1000)} s (a busy booth?)`;
    case 'error':
      return `/healthz on port ${port} failed (${probe.message})`;
  }
}
