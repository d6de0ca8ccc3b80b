import type { SystemCommand } from './system.port.js';

/**
 * What every child may see of the service's environment: where programs and the user's files are,
 * the language and the time zone. Everything else (the admin PIN, the capture app's password, any
 * token a host put there) stays in the service.
 */
const BASE = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'LC_ALL', 'TZ', 'TMPDIR'] as const;
const LOCALE_PREFIX = 'LC_';

/** What a program needs beyond the base to reach its own server or session. */
const PER_COMMAND: Record<SystemCommand, readonly string[]> = {
  // `systemctl --user` finds the user's manager through the runtime folder and the session bus.
  systemctl: ['XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS'],
  reboot: ['XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS'],
  wtype: ['XDG_RUNTIME_DIR', 'WAYLAND_DISPLAY'],
  lp: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  lpstat: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  lpoptions: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  cancel: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  cupsenable: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  cupsaccept: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  lpadmin: ['CUPS_SERVER', 'CUPS_ENCRYPTION'],
  vcgencmd: [],
  ffmpeg: [],
  // Proxies are how some venues reach the outside; rclone's own RCLONE_* variables can define
  // remotes and commands, so none is inherited.
  rclone: ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'],
};

/** Variables a caller may never hand a child, whatever it asks: Boothdeck's own configuration and rclone's. */
const isForbidden = (name: string): boolean => name.startsWith('BOOTHDECK_') || name.startsWith('RCLONE_');

/**
 * The one place a child's environment is built: the allowlisted part of `parent`, then what the
 * caller sets for this run (code's own constants, such as `LC_ALL=C` or `WAYLAND_DISPLAY`).
 */
export function childEnvironment(
  command: SystemCommand,
  parent: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const allowed = new Set<string>([...BASE, ...PER_COMMAND[command]]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isForbidden(name)) continue;
    if (allowed.has(name) || name.startsWith(LOCALE_PREFIX)) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (isForbidden(name)) throw new Error(`A child's environment may not carry ${name}`);
    env[name] = value;
  }
  return env;
}
