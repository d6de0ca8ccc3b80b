import { vi } from 'vitest';

/**
 * How long a test waits for what it expects to happen on its own (a stream connected, a file
 * written): a slow board or a busy runner takes seconds where a quiet desktop takes milliseconds.
 * Only a failing test waits that long.
 */
export const EVENTUALLY_MS = 30_000;

/** vi.waitFor with a bound sized for a busy machine (Vitest's own is 1 s): retries `check` until it passes. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = EVENTUALLY_MS): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}
