/**
 * A deterministic corpus of bad request bodies: broken JSON, wrong types, names every object
 * answers through its prototype, control characters, extreme numbers, deep and wide shapes.
 * Each route's corpus mixes its own field names in, so that parsing goes past the first check.
 */

/** Names that every JavaScript object answers, own property or not. */
export const PROTOTYPE_NAMES = [
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'prototype',
] as const;

/** mulberry32: the same corpus on every run, so a failure can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RAW_TEXTS = [
  '',
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '\u0000',
  '{"\\ud800":1}',
  '"\\u0000"',
  '{"a":"\\x41"}',
  '{"a":1}{"b":2}',
  '{"a":1e99999}',
  '{"a":-0}',
  '{"a":01}',
  '\ufeff{}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
];

const STRINGS = [
  '',
  ' ',
  'x',
  '\u0000',
  'a\u001bb',
  '\u0007',
  'a\nb',
  '\u202e gnp.exe',
  '\ud800',
  '../../../../etc/passwd',
  '/etc/passwd',
  'userdata/../config/config.json',
  '%2e%2e/',
  '#zzzzzz',
  '#ffaa00',
  'blue',
  'original',
  '1000',
  'true',
  'null',
  '__proto__',
  'toString',
  'x'.repeat(300),
  'é'.repeat(70),
  '😀'.repeat(50),
  '<script>alert(1)</script>',
  '${7*7}',
  '4321x',
];

const NUMBERS = [0, -1, 1, 0.5, -0.0001, 99, 100, 5000, 5001, 1e21, -1e21, 2 ** 53 + 1, 1e308, Number.MIN_VALUE, 3.14159, 20.05, 65536];

export interface CorpusOptions {
  /** The route's own field names (dotted or top level), mixed with prototype and unknown names. */
  keys: readonly string[];
  count: number;
  seed: number;
}

/** One bad body: either raw text (sent as application/json) or a JSON value. */
export type BadBody = { raw: string } | { json: unknown };

export function badBodies({ keys, count, seed }: CorpusOptions): BadBody[] {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const names = [...keys, ...PROTOTYPE_NAMES, 'bogus', '', ' ', 'a.b.c', `${pick(keys)}.toString`, `__proto__.${pick(keys)}`];

  const value = (depth: number): unknown => {
    const r = rnd();
    if (r < 0.2) return pick(STRINGS);
    if (r < 0.35) return pick(NUMBERS);
    if (r < 0.45) return pick([true, false, null]);
    if (r < 0.55) return [];
    if (r < 0.65 || depth > 3) return depth > 3 ? pick(STRINGS) : Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => value(depth + 1));
    return object(depth + 1);
  };
  const object = (depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const n = Math.floor(rnd() * 4);
    for (let i = 0; i <= n; i++) {
      // defineProperty keeps `__proto__` an own key, as JSON.parse makes it on the server.
      Object.defineProperty(out, pick(names), { value: value(depth), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };

  const out: BadBody[] = RAW_TEXTS.map((raw) => ({ raw }));
  for (const name of PROTOTYPE_NAMES) {
    for (const v of [{}, 1, 'x', null, [], { a: 1 }]) out.push({ raw: `{${JSON.stringify(name)}:${JSON.stringify(v)}}` });
  }
  for (const key of keys) {
    for (const v of [...STRINGS.slice(0, 12), ...NUMBERS.slice(0, 8), null, [], {}, true]) out.push({ json: { [key]: v } });
  }
  out.push({ json: null }, { json: [] }, { json: 'x' }, { json: 5 }, { json: true });
  out.push({ raw: JSON.stringify(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]))) });
  while (out.length < count) {
    const r = rnd();
    if (r < 0.1) out.push({ raw: pick(RAW_TEXTS) + pick(RAW_TEXTS) });
    else if (r < 0.15) out.push({ json: value(0) });
    else out.push({ raw: JSON.stringify(object(0)) });
  }
  return out;
}
