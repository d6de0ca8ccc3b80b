import { z } from 'zod';
import { hasNoControl, NO_CONTROL_MESSAGE } from '../core/util/text.js';

/**
 * An rclone remote as rclone writes it, or a local folder. It goes to rclone as one argument, so
 * a value that rclone would read as an option (a leading dash) or that carries a control
 * character is refused.
 */
const remote = z
  .string()
  .trim()
  .max(512, 'must be at most 512 characters')
  .refine((v) => !v.startsWith('-'), 'must be an rclone remote (name:path) or a folder, not an option')
  .refine(hasNoControl, NO_CONTROL_MESSAGE)
  .refine((v) => v === '' || v.includes(':') || v.startsWith('/'), 'must be an rclone remote (name:path) or an absolute folder');

const baseUrl = z
  .string()
  .trim()
  .max(512)
  .refine((v) => v === '' || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v), 'must be an http(s) address without query')
  .transform((v) => v.replace(/\/+$/, ''));

export const BOOTH_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const publishSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  remote,
  public_base_url: baseUrl,
  booth_name: z.string().regex(BOOTH_NAME, 'must be 1 to 40 lower-case letters, digits or dashes'),
  config: z.enum(['boothdeck', 'user']),
  language: z.enum(['fr', 'en']),
});

export const publishSettingsPatch = publishSettingsSchema.partial();
