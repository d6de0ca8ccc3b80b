import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SCREEN_REFRESH_COMMANDS, isScreenRefreshCommand } from './system/system.port.js';

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  adminPin: string | undefined;
  /** Unset means: start the bundled capture-app simulator on loopback (asked for, or a development checkout). */
  captureUrl: string | undefined;
  captureDataDir: string | undefined;
  capturePassword: string;
  hardware: 'auto' | 'fake';
  simulatorIntervalSeconds: number;
  /** argv of the booth-screen refresh; null when switched off, undefined to decide at start. */
  screenRefresh: string[] | null | undefined;
  waylandDisplay: string;
  captureUnit: string;
  /** The folder a publishing destination of type folder must be in (BOOTHDECK_PUBLISH_ROOT): chosen by the owner at install, never from the console. */
  publishRoot: string;
  /**
   * BOOTHDECK_BACKGROUND_PRIORITY, checked here with the others; own-priority.ts reads it from the
   * environment, which every child of the service inherits.
   */
  backgroundPriority: 'lowest' | 'normal';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const PIN_PATTERN = /^\d{4,8}$/;

const blankIsUnset = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const envSchema = z.object({
  BOOTHDECK_PORT: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(0, 'must be 0 to 65535').max(65535, 'must be 0 to 65535'))
      .default(8080),
  ),
  BOOTHDECK_HOST: z.preprocess(blankIsUnset, z.string().default('0.0.0.0')),
  BOOTHDECK_DATA_DIR: z.preprocess(blankIsUnset, z.string().optional()),
  BOOTHDECK_ADMIN_PIN: z.preprocess(blankIsUnset, z.string().regex(PIN_PATTERN, 'must be 4 to 8 digits').optional()),
  BOOTHDECK_CAPTURE_URL: z.preprocess(
    blankIsUnset,
    z
      .union([
        z.literal('simulator'),
        z
          .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, or "simulator"' })
          .transform((u) => u.replace(/\/+$/, '')),
      ])
      .optional(),
  ),
  BOOTHDECK_CAPTURE_DATA_DIR: z.preprocess(blankIsUnset, z.string().optional()),
  BOOTHDECK_CAPTURE_PASSWORD: z.preprocess(blankIsUnset, z.string().default('0000')),
  BOOTHDECK_HARDWARE: z.preprocess(blankIsUnset, z.enum(['auto', 'fake'], { error: 'must be "auto" or "fake"' }).default('auto')),
  BOOTHDECK_SCREEN_REFRESH: z.preprocess(
    blankIsUnset,
    z
      .string()
      .transform((text, ctx) => {
        if (text === 'off') return null;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be "off" or a JSON array such as ["wtype","-k","F5"]' });
          return z.NEVER;
        }
      })
      .pipe(
        z.union([
          z.null(),
          z
            .array(z.string().min(1), { error: 'must be "off" or a JSON array such as ["wtype","-k","F5"]' })
            .min(1, 'must name a command')
            .refine(
              (argv) => isScreenRefreshCommand(argv[0] ?? ''),
              `must start with a screen-refresh tool: ${SCREEN_REFRESH_COMMANDS.join(', ')}`,
            ),
        ]),
      )
      .optional(),
  ),
  BOOTHDECK_WAYLAND_DISPLAY: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^[\w.-]+$/, 'must be a display name')
      .default('wayland-0'),
  ),
  BOOTHDECK_CAPTURE_UNIT: z.preprocess(
    blankIsUnset,
    z
      .string()
      .max(255, 'must be a systemd unit name')
      // systemctl would read a leading "-" as an option (-H runs it on another host).
      .regex(/^[A-Za-z0-9_][\w:@.-]*$/, 'must be a systemd unit name (letters, digits, : _ . @ -; not starting with -)')
      .default('photobooth-app'),
  ),
  BOOTHDECK_PUBLISH_ROOT: z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((v) => path.isAbsolute(v), 'must be an absolute folder (starting with /)')
      .default('/media'),
  ),
  // Anything but these two stops the start: a booth whose value was mistyped must not guess.
  BOOTHDECK_BACKGROUND_PRIORITY: z.preprocess(
    blankIsUnset,
    z.enum(['lowest', 'normal'], { error: 'must be "lowest" (a booth; the default) or "normal" (test runners only)' }).default('lowest'),
  ),
  BOOTHDECK_SIMULATOR_INTERVAL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a number of seconds')
      .transform(Number)
      .default(0),
  ),
});

export const isValidPin = (pin: string): boolean => PIN_PATTERN.test(pin);

/**
 * Reads and validates the BOOTHDECK_* variables. A bad value stops the start with a message
 * naming every variable at fault, instead of a surprise later.
 */
/** photobooth-app's own address on the booth: what a missing URL means outside development. */
export const DEFAULT_CAPTURE_URL = 'http://127.0.0.1:8000';

export interface ConfigDefaults {
  dataDir?: string;
  /** The Electron kiosk runs on a booth: a missing capture URL never means the simulator there. */
  kiosk?: boolean;
}

/**
 * A booth, as opposed to a development checkout: the kiosk, an installed AppImage (whose runtime
 * sets APPIMAGE) or NODE_ENV=production. There, silently simulating the capture app would hide
 * a real fault, so the simulator runs only when asked for by name.
 */
export function isBoothInstall(env: NodeJS.ProcessEnv, defaults: ConfigDefaults = {}): boolean {
  return defaults.kiosk === true || env.NODE_ENV === 'production' || Boolean(env.APPIMAGE);
}

export function loadConfig(env: NodeJS.ProcessEnv, defaults: ConfigDefaults = {}): ServiceConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = env[name];
      return `  ${name}=${raw === undefined ? '(unset)' : JSON.stringify(raw)}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const v = parsed.data;
  const dataDir = path.resolve(v.BOOTHDECK_DATA_DIR ?? defaults.dataDir ?? path.join(process.cwd(), 'data'));
  const captureUrl =
    v.BOOTHDECK_CAPTURE_URL === 'simulator'
      ? undefined
      : (v.BOOTHDECK_CAPTURE_URL ?? (isBoothInstall(env, defaults) ? DEFAULT_CAPTURE_URL : undefined));
  const captureDataDir =
    v.BOOTHDECK_CAPTURE_DATA_DIR !== undefined
      ? path.resolve(v.BOOTHDECK_CAPTURE_DATA_DIR)
      : captureUrl !== undefined
        ? path.join(os.homedir(), 'photobooth-data')
        : undefined;
  return {
    port: v.BOOTHDECK_PORT,
    host: v.BOOTHDECK_HOST,
    dataDir,
    adminPin: v.BOOTHDECK_ADMIN_PIN,
    captureUrl,
    captureDataDir,
    capturePassword: v.BOOTHDECK_CAPTURE_PASSWORD,
    hardware: v.BOOTHDECK_HARDWARE,
    simulatorIntervalSeconds: v.BOOTHDECK_SIMULATOR_INTERVAL,
    screenRefresh: v.BOOTHDECK_SCREEN_REFRESH,
    waylandDisplay: v.BOOTHDECK_WAYLAND_DISPLAY,
    captureUnit: v.BOOTHDECK_CAPTURE_UNIT,
    publishRoot: path.resolve(v.BOOTHDECK_PUBLISH_ROOT),
    backgroundPriority: v.BOOTHDECK_BACKGROUND_PRIORITY,
  };
}
