import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_SETTINGS_FIELDS } from '../../server/settings/settings.keys.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/** The dotted settings fields named in backquotes between `from` and `to` in a doc. */
function fieldsBetween(file: string, from: string, to: string): string[] {
  const text = readFileSync(path.join(DOCS, file), 'utf8').replace(/\s+/g, ' ');
  const start = text.indexOf(from);
  expect(start, `${file} says "${from}"`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf(to, start);
  const names = [...text.slice(start, end).matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!);
  // The owner's limits bound two of them: named beside them, they are not fields the event key changes.
  return names.filter((n) => n !== 'print.limits').sort();
}

describe('the settings fields the event key may change', () => {
  it('are the same in the code, in docs/security.md and in docs/api.md', () => {
    const code = [...EVENT_SETTINGS_FIELDS].sort();
    expect(fieldsBetween('security.md', 'with the event key only', 'may change')).toEqual(code);
    expect(fieldsBetween('api.md', 'With the event key, only', 'may change')).toEqual(code);
  });
});
