/**
 * One booth's line of the fleet page (`booths/<name>.json` beside the page, and `fleet.json`'s
 * list), written by the deploy on the booth after every outcome (types only).
 */

/** What the booth's last deploy, pull, rollback or recovery came to. */
export type FleetOutcome =
  | 'installed'
  /** The new release runs; the watch window after the switch has not ended yet. */
  | 'watching'
  | 'up-to-date'
  /** An event is under way (or the guard could not tell): the booth installs it after. */
  | 'deferred'
  /** Another deploy held the booth. */
  | 'busy'
  | 'no-space'
  /** The release never replaced the running one (its trial failed, or a step did). */
  | 'failed'
  /** The new release failed after the switch: the one before it runs again. */
  | 'rolled-back'
  /** The release the unit runs keeps dying and restarting: nothing answers. */
  | 'crash-loop'
  /** An interrupted switch was completed or undone. */
  | 'recovered';

/** Whether guests are using the booth, as the event guard saw it. */
export type FleetEventState = 'idle' | 'under-way' | 'unknown' | 'stopped';

export interface FleetEntry {
  booth: string;
  /** The version the booth runs ('-' when none). */
  version: string;
  /** When that release was built ('-' when unknown). */
  release_date: string;
  last_outcome: FleetOutcome;
  /** When the outcome was reached, UTC, ISO 8601 to the second. */
  last_deploy_at: string;
  event: FleetEventState;
  /** The outcome in one sentence (what failed, why it waits). */
  detail: string;
}
