import { z } from 'zod';
import { SLUG_PATTERN } from '../../common/text.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A day (local time, whole day) or an ISO date-time; `end` picks the last millisecond of a day. */
const dateBound = (end: boolean) =>
  z.string().transform((text, ctx) => {
    const day = DAY.exec(text);
    let time = Number.NaN;
    if (day) {
      const [y, m, d] = [Number(day[1]), Number(day[2]) - 1, Number(day[3])];
      const date = end ? new Date(y, m, d, 23, 59, 59, 999) : new Date(y, m, d);
      // Date rolls 2026-02-30 over to March: such a day does not exist.
      if (date.getFullYear() === y && date.getMonth() === m && date.getDate() === d) time = date.getTime();
    } else if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
      time = Date.parse(text);
    }
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: 'custom', message: 'must be a date such as 2026-11-22 or 2026-11-22T14:30:00' });
      return z.NEVER;
    }
    return time;
  });

export const cursorParam = z.string().regex(/^[A-Za-z0-9_-]{1,120}$/, 'is not a cursor this service gave');

export const adminPhotoQuery = z
  .strictObject({
    event: z.string().regex(SLUG_PATTERN, 'must be an event slug').optional(),
    from: dateBound(false).optional(),
    to: dateBound(true).optional(),
    status: z.enum(['all', 'printed', 'not_printed'], { error: 'must be all, printed or not_printed' }).default('all'),
    cursor: cursorParam.optional(),
    limit: z.coerce.number().int('must be a whole number').min(1, 'must be 1 to 200').max(200, 'must be 1 to 200').default(60),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: 'must not be after to', path: ['from'] });

export const publicPhotoQuery = z.strictObject({
  cursor: cursorParam.optional(),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be 1 to 200').max(200, 'must be 1 to 200').default(30),
});

export const photoIdParam = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a photo id');
