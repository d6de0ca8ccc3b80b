import { z } from 'zod';
import { destinationInput } from './destination.schema.js';

const baseUrl = z
  .string()
  .trim()
  .max(512)
  .refine((v) => v === '' || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v), 'must be an http(s) address without query')
  .transform((v) => v.replace(/\/+$/, ''));

export const BOOTH_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

const common = {
  enabled: z.boolean(),
  public_base_url: baseUrl,
  booth_name: z.string().regex(BOOTH_NAME, 'must be 1 to 40 lower-case letters, digits or dashes'),
  language: z.enum(['fr', 'en']),
};

const hex = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
  .transform((v) => v.toLowerCase());

/** The published pages' colours; null: Boothdeck's dark page. Only #rrggbb ever reaches a page's style. */
export const publishColors = z.strictObject({ background: hex, text: hex, accent: hex });

/** The fleet's index folder key: 128 random bits, as the console draws them. */
export const companyIndexKey = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be 22 letters, digits, dashes or underscores');

/** What the operator may change; the destination is checked field by field, and its secret is write-only. */
export const publishSettingsPatch = z
  .strictObject({
    ...common,
    colors: publishColors.nullable(),
    company_index: companyIndexKey.nullable(),
    destination: destinationInput.nullable(),
  })
  .partial();

/**
 * The publishing settings as a backup carries them: the same checks field by field, and never a
 * password (a `password` key is refused): a fleet's booths share a destination, each keeps its secret.
 */
export const publishBackup = z.strictObject({
  ...common,
  /** Absent in backups made before colours: the booth's own are kept. */
  colors: publishColors.nullable().optional(),
  /** The fleet's index: every booth restored from one backup writes its entry into the same folder. */
  company_index: companyIndexKey.nullable().optional(),
  destination: destinationInput
    .superRefine((d, ctx) => {
      if ('password' in d) ctx.addIssue({ code: 'custom', path: ['password'], message: 'is never part of a backup' });
    })
    .nullable(),
});

export type PublishBackup = z.output<typeof publishBackup>;

/** The destination as stored: the same checks, never a secret (that is kept apart). */
const storedDestination = destinationInput.transform((d) => {
  if ('password' in d) {
    const { password: _secret, ...rest } = d;
    return rest;
  }
  return d;
});

/** The settings as stored in SQLite; read back through the same checks, so nothing stored unchecked ever reaches rclone. */
export const storedPublishSettings = z.strictObject({
  ...common,
  colors: publishColors.nullable(),
  company_index: companyIndexKey.nullable(),
  destination: storedDestination.nullable(),
  notice: z.union([z.literal('destination_dropped'), z.null()]).optional(),
});

export type StoredPublishSettings = z.output<typeof storedPublishSettings>;
