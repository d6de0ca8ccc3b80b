import { z } from 'zod';
import { NO_CONTROL_MESSAGE, hasNoControl } from '../core/util/text.js';
import { SLUG_PATTERN } from '../../common/text.js';

export const createEventBody = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(80, 'is too long').refine(hasNoControl, NO_CONTROL_MESSAGE),
  slug: z
    .string()
    .trim()
    .max(60, 'is too long')
    .regex(SLUG_PATTERN, 'must be lower-case letters and digits separated by dashes, such as mariage-lea-et-tom')
    .optional(),
  /** One line shown to guests at the top of the gallery. */
  welcome: z.string().trim().max(140, 'is too long').refine(hasNoControl, NO_CONTROL_MESSAGE).optional(),
});

export const slugParam = z.string().regex(SLUG_PATTERN, 'must be an event slug').max(60);

export const progressToken = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be a token of 8 to 64 letters, digits, - or _');
