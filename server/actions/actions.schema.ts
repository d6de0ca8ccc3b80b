import { z } from 'zod';
import { NO_CONTROL_MESSAGE, hasNoControl, hasNoControlButLines } from '../core/util/text.js';

export const indexParam = z
  .string()
  .regex(/^\d{1,4}$/, 'must be a position: a whole number from 0')
  .transform(Number);

export const reorderBody = z.strictObject({
  order: z.array(z.number().int('must hold whole numbers').min(0, 'must hold positions from 0')).max(500),
});

export const presetBody = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(60, 'is too long').refine(hasNoControl, NO_CONTROL_MESSAGE),
  description: z.string().trim().max(500, 'is too long').refine(hasNoControlButLines, NO_CONTROL_MESSAGE).default(''),
});

export const presetIdParam = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a preset id')
  .transform(Number);
