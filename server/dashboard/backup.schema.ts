import { z } from 'zod';
import { ACTION_KINDS } from '../capture/capture.types.js';
import { settingsSchema } from '../settings/settings.schema.js';

export const BACKUP_FORMAT = 'boothdeck-backup';
export const BACKUP_VERSION = 1;

const storedAction = z.strictObject({
  kind: z.enum(ACTION_KINDS, { error: `must be one of ${ACTION_KINDS.join(', ')}` }),
  entry: z.record(z.string(), z.unknown()),
});

const preset = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  description: z.string().max(500, 'must be at most 500 characters'),
  created_at: z.string().min(1),
  actions: z.array(storedAction).max(100),
});

/** One file holds Boothdeck's settings, the capture app's action list and the saved presets. */
export const backupSchema = z
  .strictObject({
    format: z.literal(BACKUP_FORMAT, { error: `must be "${BACKUP_FORMAT}" (this is not a Boothdeck backup)` }),
    version: z.literal(BACKUP_VERSION, { error: `must be ${BACKUP_VERSION} (a backup from another Boothdeck version)` }),
    created_at: z.string(),
    settings: settingsSchema,
    actions: z.array(storedAction).max(100),
    presets: z.array(preset).max(200),
  })
  .superRefine((backup, ctx) => {
    const seen = new Set<string>();
    backup.presets.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: ['presets', i, 'name'], message: `"${p.name}" appears twice` });
      seen.add(p.name);
    });
  });

export type Backup = z.output<typeof backupSchema>;
