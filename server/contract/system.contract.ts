import type { CaptureJobPhase } from './capture.contract.js';

/**
 * `waiting`: a guest's job runs in the capture app; the restart waits for it to end (at most
 * `waiting.max_seconds`). `warning`: the change is applied, but not by a real restart; `message`
 * says what to check.
 */
export type RestartState = 'idle' | 'pending' | 'waiting' | 'restarting' | 'refreshing' | 'done' | 'warning' | 'failed';

/** How the last wait for a guest's job ended: the job ended, the bound ran out, or the operator chose to restart now. */
export type RestartWaitOutcome = 'job_done' | 'timeout' | 'operator';

/** Where the "apply to the capture app" chain stands: restart, then refresh of the booth screen. */
export interface RestartStatus {
  state: RestartState;
  /** Why the last restart was asked for ("actions", "gallery settings", …). */
  reasons: string[];
  requested_at: string | null;
  finished_at: string | null;
  /** For a failure: which step and why. For a success with a skipped step: why it was skipped. */
  message: string | null;
  /**
   * How the capture app was restarted: its own endpoint, the systemctl fallback, or its
   * in-process reload when the endpoint answered but nothing restarted (not run by systemd).
   */
  method: 'api' | 'systemctl' | 'reload' | null;
  screen_refreshed: boolean | null;
  /** How long the recent restarts kept the booth away, in seconds (the longest of the last few); null before the first. */
  typical_seconds: number | null;
  /** While `waiting`: since when, for how long at most, and what the guest's job is doing. */
  waiting: { since: string; max_seconds: number; phase: CaptureJobPhase } | null;
  /** How the wait before this restart ended; null when no job was running. */
  after_wait: RestartWaitOutcome | null;
}
