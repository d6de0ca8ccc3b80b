/**
 * The deploy's settings: the environment first (scripts/deploy.sh passes its own), then
 * ~/.config/boothdeck/fleet.env (the booth owner's, read by the timers too), then the defaults.
 * A value that is not a number where one is needed falls back to the default.
 */
export interface DeploySettings {
  /** /healthz looks while waiting for a release to answer, and the pause between them. */
  healthAttempts: number;
  healthWaitMs: number;
  quietMinutes: number;
  eventHours: number;
  reserveMb: number;
  /** How long the new release must stay up after the switch before it counts as installed. */
  watchSeconds: number;
  /** How long the guard waits for an answer while the unit restarts (a gap, or a crash loop). */
  guardGapSeconds: number;
  followTimeoutSeconds: number;
  followIntervalMs: number;
}

const DEFAULTS: DeploySettings = {
  healthAttempts: 60,
  healthWaitMs: 2000,
  quietMinutes: 30,
  eventHours: 12,
  reserveMb: 100,
  watchSeconds: 60,
  guardGapSeconds: 30,
  followTimeoutSeconds: 1500,
  followIntervalMs: 500,
};

/** Each setting's variable, and whether it is given in seconds (read into milliseconds). */
const VARIABLES: Record<keyof DeploySettings, [string, number]> = {
  healthAttempts: ['BOOTHDECK_HEALTH_ATTEMPTS', 1],
  healthWaitMs: ['BOOTHDECK_HEALTH_WAIT', 1000],
  quietMinutes: ['BOOTHDECK_QUIET_MINUTES', 1],
  eventHours: ['BOOTHDECK_EVENT_HOURS', 1],
  reserveMb: ['BOOTHDECK_RESERVE_MB', 1],
  watchSeconds: ['BOOTHDECK_WATCH_SECONDS', 1],
  guardGapSeconds: ['BOOTHDECK_GUARD_GAP_SECONDS', 1],
  followTimeoutSeconds: ['BOOTHDECK_FOLLOW_TIMEOUT', 1],
  followIntervalMs: ['BOOTHDECK_FOLLOW_INTERVAL', 1000],
};

export const SETTING_VARIABLES = Object.values(VARIABLES).map(([name]) => name);

export function readSettings(env: Record<string, string | undefined>, fleetEnv: Record<string, string>): DeploySettings {
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(VARIABLES) as (keyof DeploySettings)[]) {
    const [name, scale] = VARIABLES[key];
    const raw = env[name] ?? fleetEnv[name];
    if (raw === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(raw)) continue;
    const value = Number(raw) * scale;
    if (Number.isFinite(value) && value <= 10_000_000) settings[key] = value;
  }
  return settings;
}
