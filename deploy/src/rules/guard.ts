import type { FleetEventState } from '../../../server/contract/fleet.contract.js';
import type { HealthStatus } from '../../../server/contract/health.contract.js';
import { describeProbe, describeUnit, unitRuns, type HealthProbe, type UnitState } from './unit-state.js';

/**
 * The event guard: may Boothdeck be restarted now? It fails closed: only a booth where nothing
 * listens AND the unit is not running (first deploy, Boothdeck stopped) goes without an answer,
 * and a unit that keeps dying (a crash loop: nothing to protect, a deploy can only help).
 */

export interface GuardPolicy {
  /** A photo in the last this many minutes: an event is under way. */
  quietMinutes: number;
  /** An event opened less than this many hours ago with no photo yet is under way too. */
  eventHours: number;
}

export interface GuardObservation {
  port: number;
  health: HealthProbe;
  /** The unit's state; undefined when systemd could not be asked. */
  unit: UnitState | undefined;
  /** While nothing answered, the unit restarted the release again and again. */
  crashLoop: boolean;
}

export interface GuardVerdict {
  go: boolean;
  event: FleetEventState;
  crashLoop: boolean;
  /** The decision in one sentence, for the log and the fleet page. */
  sentence: string;
}

/** Under way, and why, from a health answer; undefined when the booth is idle. */
export function eventUnderWay(status: HealthStatus, policy: GuardPolicy): string | undefined {
  if (!status.event_active) return undefined;
  const age = status.last_photo_age_seconds;
  if (age !== null) {
    if (age < policy.quietMinutes * 60) {
      return `an event is under way on the booth (last photo ${Math.floor(age / 60)} min ago, less than ${policy.quietMinutes} min)`;
    }
    return undefined;
  }
  const opened = status.event_age_seconds;
  if (opened === null) return 'an event is open on the booth with no photo yet';
  if (opened < policy.eventHours * 3600) {
    return `an event is open on the booth since ${Math.floor(opened / 60)} min, with no photo yet (less than ${policy.eventHours} h)`;
  }
  return undefined;
}

export function guardVerdict(obs: GuardObservation, policy: GuardPolicy, force: boolean): GuardVerdict {
  const decided = decide(obs, policy);
  if (decided.go) return decided;
  if (force) return { ...decided, go: true, sentence: `FORCED: ${decided.reason}; Boothdeck will be restarted anyway` };
  return {
    ...decided,
    sentence: `REFUSED: ${decided.reason}: Boothdeck keeps running. The booth installs the release by itself once the event is over, or deploy again with force.`,
  };
}

function decide(obs: GuardObservation, policy: GuardPolicy): GuardVerdict & { reason: string } {
  const { health, unit } = obs;
  if (health.kind === 'answer') {
    const why = eventUnderWay(health.status, policy);
    if (why) return { go: false, event: 'under-way', crashLoop: false, reason: why, sentence: '' };
    return {
      go: true,
      event: 'idle',
      crashLoop: false,
      reason: '',
      sentence: `Event guard: no event under way (no photo in the last ${policy.quietMinutes} min): Boothdeck ${health.status.version} may be restarted`,
    };
  }
  if (health.kind === 'nothing-listens') {
    if (!unit || !unitRuns(unit)) {
      const state = unit ? ` (unit ${describeUnit(unit)})` : '';
      return {
        go: true,
        event: 'stopped',
        crashLoop: false,
        reason: '',
        sentence: `Event guard: nothing listens on port ${obs.port} and Boothdeck's unit is not running${state} (first deploy, or Boothdeck stopped): nothing to guard`,
      };
    }
    if (obs.crashLoop) {
      return {
        go: true,
        event: 'unknown',
        crashLoop: true,
        reason: '',
        sentence: `Event guard: the running release keeps dying (unit ${describeUnit(unit)}) and nothing answers on port ${obs.port}: nothing to protect, a new release can only help`,
      };
    }
    const reason = `Boothdeck's unit is running (${describeUnit(unit)}) but nothing answers on port ${obs.port} (a restart under way?): cannot tell whether an event is under way`;
    return { go: false, event: 'unknown', crashLoop: false, reason, sentence: '' };
  }
  const reason = `${describeProbe(health, obs.port)}: cannot tell whether an event is under way`;
  return { go: false, event: 'unknown', crashLoop: false, reason, sentence: '' };
}

/**
 * While nothing answers and the unit runs, the guard looks again for a while: a restart gap ends
 * with an answer; a release that keeps dying shows as restarts piling up, or a failed unit.
 */
export function crashLoopSeen(first: UnitState, last: UnitState): boolean {
  return last.active === 'failed' || last.restarts > first.restarts;
}
