import { describe, expect, it } from 'vitest';
import { ByteCache } from '../../server/core/util/byte-cache.js';

const buf = (n: number, fill = 1): Buffer => Buffer.alloc(n, fill);

describe('the thumbnail memory', () => {
  it('stays within its size by dropping what was read least recently', () => {
    const cache = new ByteCache(300, 300);
    cache.set('a', buf(100));
    cache.set('b', buf(100));
    cache.set('c', buf(100));
    cache.get('a');
    // Asking whether an entry is kept is not a use: 'b' stays the least recently used.
    expect(cache.has('b')).toBe(true);
    cache.set('d', buf(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(buf(100));
    expect(cache.get('c')).toEqual(buf(100));
    expect(cache.get('d')).toEqual(buf(100));
    expect(cache.bytes).toBe(300);
  });

  it('never keeps an entry larger than its per-entry limit, nor counts one twice when replaced', () => {
    const cache = new ByteCache(1000, 200);
    cache.set('big', buf(201));
    expect(cache.get('big')).toBeUndefined();
    cache.set('x', buf(150, 1));
    cache.set('x', buf(50, 2));
    expect(cache.bytes).toBe(50);
    expect(cache.get('x')).toEqual(buf(50, 2));
    cache.delete('x');
    expect(cache.bytes).toBe(0);
  });
});
