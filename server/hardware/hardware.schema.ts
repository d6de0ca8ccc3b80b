import { z } from 'zod';
import { RELAY_TEST_MAX_MS } from './relay.guard.js';

const RELAY_TEST_RANGE = `must be 100 to ${RELAY_TEST_MAX_MS} ms`;

export const diagnosticQuery = z.object({
  since: z.coerce.number().int().min(0).optional(),
});

export const relayTestBody = z.strictObject({
  ms: z.number().int().min(100, RELAY_TEST_RANGE).max(RELAY_TEST_MAX_MS, RELAY_TEST_RANGE).default(1000),
});

export const ledTestBody = z.strictObject({
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #ffaa00'),
});

export const countdownTestBody = z.strictObject({
  seconds: z.number().min(1, 'must be 1 to 10 seconds').max(10, 'must be 1 to 10 seconds').default(3),
});
