/** `warning`: the change is applied, but not by a real restart; `message` says what to check. */
export type RestartState = 'idle' | 'pending' | 'restarting' | 'refreshing' | 'done' | 'warning' | 'failed';

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
}
