import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeKey } from '../../renderer/shared/error-text.js';
import { en } from '../../renderer/shared/i18n/en.js';
import { fr } from '../../renderer/shared/i18n/fr.js';

const SERVER = path.resolve(import.meta.dirname, '../../server');
/** A code as the server writes them: lower-case words joined by underscores. */
const CODE = /^[a-z]+(?:_[a-z]+)*$/;

/** Every .ts file of the service, but not its test fakes nor the capture-app simulator (its errors never reach the console). */
function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'simulator' ? [] : serverFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.fake.ts') ? [full] : [];
  });
}

/** The arguments of the call whose opening parenthesis is at `start`, as written, split at their commas. */
function callArguments(src: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = start + 1;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === "'" || c === '`' || c === '"') {
      const end = src.indexOf(c, i + 1);
      i = end === -1 ? src.length : end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) {
      args.push(src.slice(from, i).trim());
      return args;
    } else if (c === ',' && depth === 1) {
      args.push(src.slice(from, i).trim());
      from = i + 1;
    }
  }
  return args;
}

/**
 * The codes the service can answer with: the second argument of `super(status, 'code', …)`,
 * every code-shaped string given to an error's constructor after its message, the defaults of the
 * error classes, and the codes the error middleware writes itself.
 */
function thrownCodes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of serverFiles(SERVER)) {
    const src = readFileSync(file, 'utf8');
    const where = path.relative(SERVER, file);
    for (const m of src.matchAll(/super\(\s*\d{3}\s*,\s*'([a-z_]+)'/g)) found.set(m[1]!, where);
    for (const m of src.matchAll(/\bcode\s*=\s*'([a-z_]+)'/g)) found.set(m[1]!, where);
    for (const m of src.matchAll(/new \w+Error\(/g)) {
      // The first argument is the message; a code-shaped string literal after it is a code.
      for (const arg of callArguments(src, m.index + m[0].length - 1).slice(1)) {
        const literal = /^'([^']*)'$/.exec(arg)?.[1];
        if (literal !== undefined && CODE.test(literal)) found.set(literal, where);
      }
    }
    if (where === path.join('http', 'error.middleware.ts')) {
      for (const m of src.matchAll(/code: '([a-z_]+)'/g)) found.set(m[1]!, where);
      for (const m of src.matchAll(/bodyOf\('([a-z_]+)'/g)) found.set(m[1]!, where);
      for (const m of src.matchAll(/\['([a-z_]+)', '[^']*'\]/g)) found.set(m[1]!, where);
    }
  }
  return found;
}

describe('every error code the server answers with has a sentence in French and in English', () => {
  const codes = thrownCodes();

  it('finds the codes thrown across the service (the scan itself works)', () => {
    for (const known of ['stale_version', 'publish_not_configured', 'quota_exceeded', 'slug_taken', 'invalid_json', 'internal_error']) {
      expect([...codes.keys()]).toContain(known);
    }
  });

  it.each([...thrownCodes()].map(([code, file]) => ({ code, file })))('$code ($file)', ({ code }) => {
    const key = codeKey(code);
    expect(key, `no sentence is chosen for the code "${code}"`).not.toBeNull();
    const french = fr[key!];
    const english = (en as Record<string, string>)[key!];
    expect(french.length).toBeGreaterThan(10);
    expect(english?.length ?? 0).toBeGreaterThan(10);
    // Never the code itself in the sentence (a one-word code such as "conflict" may be a word).
    if (code.includes('_')) {
      expect(french).not.toContain(code);
      expect(english).not.toContain(code);
    }
  });
});
