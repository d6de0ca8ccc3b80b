import { z } from 'zod';
import { printerName } from '../settings/settings.schema.js';
import { ADMIN_MAX_COPIES } from './print.service.js';

/** The settings' bound (max_copies) is checked by the service; this is the shape. */
export const guestPrintBody = z.strictObject({
  copies: z
    .number({ error: 'must be a whole number of copies' })
    .int('must be a whole number of copies')
    .min(1, 'must be at least 1')
    .max(1000),
});

export const adminPrintBody = z.strictObject({
  copies: z
    .number()
    .int('must be a whole number of copies')
    .min(1, 'must be at least 1')
    .max(ADMIN_MAX_COPIES, `must be at most ${ADMIN_MAX_COPIES}`),
});

export const jobIdParam = z.coerce.number({ error: 'must be a job number' }).int().min(1).max(Number.MAX_SAFE_INTEGER);

export const counterBody = z.strictObject({ counter: z.enum(['event', 'today', 'total']) });

export const printerQuery = z.strictObject({
  printer: printerName.optional(),
});
