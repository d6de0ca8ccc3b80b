import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The shim, as archiver's chain resolves `crc-32` (package.json overrides), and the original package. */
const require = createRequire(import.meta.url);
type Crc = { buf(d: Uint8Array | number[], s?: number): number; str(d: string, s?: number): number; bstr(d: string, s?: number): number };
const shim = require('crc-32') as Crc;
const reference = require('crc-32-reference') as Crc;

/** A small deterministic generator, so that a failure can be replayed. */
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

const seeds = (next: () => number): (number | undefined)[] => [
  undefined,
  0,
  -1,
  0x7fffffff,
  -0x80000000,
  Math.floor(next() * 0x1_0000_0000) | 0,
  Math.floor(next() * 0x1_0000_0000) | 0,
];

/** Any UTF-16 code units: ASCII, Latin-1, BMP, surrogate pairs and lone surrogates. */
function randomString(next: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const pick = next();
    if (pick < 0.4) out += String.fromCharCode(Math.floor(next() * 0x80));
    else if (pick < 0.6) out += String.fromCharCode(0x80 + Math.floor(next() * 0x780));
    else if (pick < 0.8) out += String.fromCharCode(0x800 + Math.floor(next() * 0xd000));
    else if (pick < 0.95) out += String.fromCodePoint(0x10000 + Math.floor(next() * 0xfffff));
    else out += String.fromCharCode(0xd800 + Math.floor(next() * 0x800));
  }
  return out;
}

describe('the crc-32 shim', () => {
  it('is the one archiver’s chain loads', () => {
    expect(require.resolve('crc-32')).toMatch(/shims[\\/]crc-32[\\/]crc32\.cjs$/);
    expect(require.resolve('crc-32-reference')).not.toMatch(/shims/);
  });

  it('gives the original’s CRC for random buffers of every length, chained through any seed', () => {
    const next = generator(0x5eed);
    const lengths = [0, 1, 2, 3, 7, 8, 15, 16, 17, 63, 64, 65, 255, 1024, 4097, 65_536 + 3, 1 << 20];
    for (const length of lengths) {
      const data = randomBytes(length);
      for (const seed of seeds(next)) {
        expect(shim.buf(data, seed), `buf length ${length} seed ${seed}`).toBe(reference.buf(data, seed));
      }
      // The way crc32-stream feeds it: chunk by chunk, each result the next seed.
      let chained = 0;
      let chainedRef = 0;
      for (let at = 0; at < length; at += 1000) {
        chained = shim.buf(data.subarray(at, at + 1000), chained);
        chainedRef = reference.buf(data.subarray(at, at + 1000), chainedRef);
      }
      expect(chained).toBe(chainedRef);
      expect(chained).toBe(shim.buf(data));
    }
    const plain = Array.from(randomBytes(300));
    expect(shim.buf(plain, 7)).toBe(reference.buf(plain, 7));
  });

  it('gives the original’s CRC for strings as UTF-8 (str) and as bytes (bstr)', () => {
    const next = generator(0xc0ffee);
    for (let round = 0; round < 300; round++) {
      const text = randomString(next, Math.floor(next() * 200));
      for (const seed of seeds(next)) {
        expect(shim.str(text, seed), `str ${JSON.stringify(text)} seed ${seed}`).toBe(reference.str(text, seed));
        expect(shim.bstr(text, seed), `bstr ${JSON.stringify(text)} seed ${seed}`).toBe(reference.bstr(text, seed));
      }
    }
    expect(shim.str('')).toBe(reference.str(''));
    expect(shim.str('Mariage de Léa — 😀')).toBe(reference.str('Mariage de Léa — 😀'));
  });
});
