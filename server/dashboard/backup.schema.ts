import { z } from 'zod';
import { ACTION_KINDS } from '../capture/capture.types.js';
import { publishBackup } from '../publish/publish.schema.js';
import { settingsSchema, withHardwareDefaults, withPrintLimits } from '../settings/settings.schema.js';
import { NO_CONTROL_MESSAGE, hasNoControl, hasNoControlButLines } from '../core/util/text.js';

/** A date as Boothdeck writes them (ISO 8601, UTC): shown to people, so nothing else. */
const isoDate = z
  .string()
  .max(40, 'must be a date such as 2026-11-22T12:00:00.000Z')
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
    'must be a date such as 2026-11-22T12:00:00.000Z',
  );

export const BACKUP_FORMAT = 'boothdeck-backup';
export const BACKUP_VERSION = 1;

const storedAction = z.strictObject({
  kind: z.enum(ACTION_KINDS, { error: `must be one of ${ACTION_KINDS.join(', ')}` }),
  entry: z.record(z.string(), z.unknown()),
});

const preset = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters').refine(hasNoControl, NO_CONTROL_MESSAGE),
  description: z.string().max(500, 'must be at most 500 characters').refine(hasNoControlButLines, NO_CONTROL_MESSAGE),
  created_at: isoDate,
  actions: z.array(storedAction).max(100),
});

/** One file holds Boothdeck's settings, the capture app's action list and the saved presets. */
export const backupSchema = z
  .strictObject({
    format: z.literal(BACKUP_FORMAT, { error: `must be "${BACKUP_FORMAT}" (this is not a Boothdeck backup)` }),
    version: z.literal(BACKUP_VERSION, { error: `must be ${BACKUP_VERSION} (a backup from another Boothdeck version)` }),
    created_at: isoDate,
    // A backup made before the owner's print limits existed gets limits that keep what it allowed.
    settings: z.preprocess((v) => withHardwareDefaults(withPrintLimits(v)), settingsSchema),
    actions: z.array(storedAction).max(100),
    presets: z.array(preset).max(200),
    /** Publishing settings without any secret; absent in backups made before them (then left alone). */
    publish: publishBackup.optional(),
  })
  .superRefine((backup, ctx) => {
    const seen = new Set<string>();
    backup.presets.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: ['presets', i, 'name'], message: `"${p.name}" appears twice` });
      seen.add(p.name);
    });
  });

export type Backup = z.output<typeof backupSchema>;
