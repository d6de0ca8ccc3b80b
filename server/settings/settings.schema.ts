import { z } from 'zod';
import type { Settings } from '../contract/settings.contract.js';
import { isObject, ownValue, setOwn } from '../core/util/json.js';

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #ffaa00');
const percent = z.number().int('must be a whole percentage').min(0).max(100);
const gpio = z.number().int().min(0, 'must be a GPIO number').max(63, 'must be a GPIO number');

/** A CUPS queue's name, as the settings and the printer questions take it (never a path or a URI). */
export const printerName = z.string().regex(/^[\w.@-]{1,127}$/, 'must be the name of a CUPS printer');

export const settingsSchema = z.strictObject({
  hardware: z.strictObject({
    relay: z.strictObject({ gpio, inverted: z.boolean() }),
    led: z.strictObject({
      gpio,
      count: z.number().int().min(1).max(300),
      idle_mode: z.enum(['solid', 'off']),
      idle_color: color,
      brightness: percent,
      auto_brightness: z.boolean(),
      capture_flash: z.boolean(),
    }),
    flash: z.strictObject({
      auto: z.boolean(),
      lux_threshold: z.number().min(0).max(100_000),
      manual_brightness: percent,
      preflash_seconds: z
        .number()
        .min(0, 'must be 0 to 3 seconds')
        .max(3, 'must be 0 to 3 seconds')
        // Steps of 0.1 s; rounding absorbs what a slider's floating point adds.
        .transform((v) => Math.round(v * 10) / 10),
      hold_ms: z.number().int().min(0).max(10_000),
      video_light: z.boolean(),
      video_max_seconds: z.number().int('must be whole seconds').min(5, 'must be 5 to 30 seconds').max(30, 'must be 5 to 30 seconds'),
    }),
    lux: z.strictObject({
      address: z.union([z.literal(0x23), z.literal(0x5c)], { error: 'must be 35 (0x23) or 92 (0x5c)' }),
    }),
  }),
  print: z.strictObject({
    enable: z.boolean(),
    quota: z.number().int().min(0).max(1000),
    max_copies: z.number().int().min(1).max(20),
    limits: z.strictObject({ quota: z.number().int().min(0).max(1000), max_copies: z.number().int().min(1).max(20) }),
    printer: z.union([printerName, z.null()]),
    paper: z.union([z.string().regex(/^[\w.@-]{1,64}$/, 'must be a paper size the printer declares'), z.null()]),
    layout: z.enum(['fill', 'fit']),
    sessions_per_address: z.number().int('must be a whole number').min(1, 'must be 1 to 20').max(20, 'must be 1 to 20'),
    // A backup made before the policy existed still restores.
    error_policy: z
      .enum(['retry-current-job', 'stop-printer'], { error: 'must be retry-current-job or stop-printer' })
      .default('retry-current-job'),
  }),
  gallery: z.strictObject({
    show_delete: z.boolean(),
    public_url: z
      .union([z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }), z.null()])
      .transform((v) => (v === null ? null : v.replace(/\/+$/, ''))),
    collage_parts: z.enum(['hidden', 'with_collage', 'photos'], { error: 'must be hidden, with_collage or photos' }),
  }),
});

export const defaultSettings: Settings = {
  hardware: {
    relay: { gpio: 17, inverted: false },
    led: { gpio: 10, count: 16, idle_mode: 'solid', idle_color: '#ffffff', brightness: 30, auto_brightness: false, capture_flash: true },
    flash: {
      auto: true,
      lux_threshold: 80,
      manual_brightness: 80,
      preflash_seconds: 1,
      hold_ms: 500,
      video_light: true,
      video_max_seconds: 20,
    },
    lux: { address: 0x23 },
  },
  print: {
    enable: true,
    quota: 5,
    max_copies: 3,
    limits: { quota: 20, max_copies: 5 },
    printer: null,
    paper: null,
    layout: 'fill',
    sessions_per_address: 2,
    error_policy: 'retry-current-job',
  },
  gallery: { show_delete: true, public_url: null, collage_parts: 'hidden' },
};

/** Lays a partial update over the current settings; validation of the result comes after. */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) setOwn(out, key, deepMerge(ownValue(base, key), value));
  return out;
}

/**
 * Settings saved before the owner's limits existed get limits that keep what they allowed: the
 * defaults, or the stored quota and copies when those were higher.
 */
export function withPrintLimits(stored: unknown): unknown {
  if (!isObject(stored) || !isObject(stored.print) || stored.print.limits !== undefined) return stored;
  const { quota, max_copies } = stored.print;
  const limits = {
    quota: Math.max(defaultSettings.print.limits.quota, typeof quota === 'number' ? quota : 0),
    max_copies: Math.max(defaultSettings.print.limits.max_copies, typeof max_copies === 'number' ? max_copies : 0),
  };
  return { ...stored, print: { ...stored.print, limits } };
}

/**
 * Hardware settings saved before the video light and the sensor's address existed get their
 * defaults (what Boothdeck did then is not kept: videos were taken unlit by accident).
 */
export function withHardwareDefaults(stored: unknown): unknown {
  if (!isObject(stored) || !isObject(stored.hardware)) return stored;
  const { hardware } = stored;
  const flash = isObject(hardware.flash)
    ? { ...pick(defaultSettings.hardware.flash, ['video_light', 'video_max_seconds']), ...hardware.flash }
    : hardware.flash;
  const lux = hardware.lux === undefined ? { ...defaultSettings.hardware.lux } : hardware.lux;
  return { ...stored, hardware: { ...hardware, flash, lux } };
}

const pick = <T extends object, K extends keyof T>(from: T, keys: K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;
