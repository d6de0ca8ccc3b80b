import { z } from 'zod';

const pin = z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits');

export const signInBody = z.strictObject({ pin: z.string().min(1, 'is required').max(32, 'is too long') });
export const initialPinBody = z.strictObject({ pin });
export const changePinBody = z.strictObject({ current_pin: z.string().min(1).max(32), new_pin: pin });
export const eventPinBody = z.strictObject({ pin });
