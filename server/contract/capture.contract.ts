import type { ActionKind } from './actions.contract.js';

/** What a guest's job in the capture app is doing: its countdown, the camera, the guest's approval, the processing. */
export type CaptureJobPhase = 'countdown' | 'capture' | 'approval' | 'processing';

/** The capture app's trigger of an action: `/api/actions/{kind}/{index}`; index null when the action could not be found. */
export interface CaptureTrigger {
  kind: ActionKind;
  index: number | null;
}

/** A guest's job that the capture app failed (its error events), as the console tells it. */
export interface CaptureJobFailure {
  /** Grows with each failure; the console remembers up to which one the operator has seen. */
  id: number;
  at: string;
  trigger: CaptureTrigger;
  /** The action's name and its button's title when it ran, as the capture app held them. */
  name: string | null;
  title: string | null;
  /** Failed runs of this action in a row, this one included (a good run starts again from 0). */
  in_a_row: number;
  /** The capture app's own words (its error lines during the job), for the details; may be empty. */
  reasons: string[];
}

/** An action whose last runs all failed: the Actions page marks its card. */
export interface FailingAction {
  trigger: CaptureTrigger;
  name: string | null;
  in_a_row: number;
  last_at: string;
}

export interface CaptureJobsStatus {
  /** The most recent failures, newest first (20 at most). */
  failures: CaptureJobFailure[];
  failing: FailingAction[];
  /** Failures up to this id have been seen by the operator (0: none). */
  seen_id: number;
}
