import { isDeepStrictEqual } from 'node:util';
import type { CaptureTrigger } from '../contract/capture.contract.js';
import { asObject } from '../core/util/json.js';
import type { ActionKind, CaptureConfig } from './capture.types.js';

type Entry = Record<string, unknown>;

/** The capture app's entries of one kind, in its order. */
export function entriesOf(config: CaptureConfig, kind: ActionKind): Entry[] {
  const list = asObject(config.actions)[kind];
  return Array.isArray(list) ? list.map(asObject) : [];
}

const title = (e: Entry): unknown => asObject(asObject(e.trigger).ui_trigger).title;

/** The only entry with this name and button title, if exactly one has them. */
function alike(entries: readonly Entry[], action: Entry): number | null {
  const found = entries.flatMap((e, i) => (e.name === action.name && title(e) === title(action) ? [i] : []));
  return found.length === 1 ? (found[0] ?? null) : null;
}

/**
 * Which of the capture app's actions a job ran: the job model carries the action's whole entry
 * (`configuration_set`), not its index. The entry equal to it, else the one with its name and
 * button title, else the kind's only action; null when nothing tells.
 */
export function findTrigger(config: CaptureConfig, kind: ActionKind, action: Entry): CaptureTrigger {
  const entries = entriesOf(config, kind);
  const exact = entries.findIndex((e) => isDeepStrictEqual(e, action));
  if (exact >= 0) return { kind, index: exact };
  const same = alike(entries, action);
  if (same !== null) return { kind, index: same };
  return { kind, index: entries.length === 1 ? 0 : null };
}

/**
 * Where an action last seen as `entry` at `index` is now among its kind's entries: the entry
 * equal to it (a reorder or a deletion moved it; its old place first when two are equal), else
 * the one at its place with its name (edited in place), else the only one with its name and
 * title; null when it is gone.
 */
export function locate(entries: readonly Entry[], entry: Entry, index: number | null): number | null {
  const equal = entries.flatMap((e, i) => (isDeepStrictEqual(e, entry) ? [i] : []));
  if (equal.length > 0) return index !== null && equal.includes(index) ? index : (equal[0] ?? null);
  const there = index === null ? undefined : entries[index];
  if (there && there.name === entry.name) return index;
  return alike(entries, entry);
}
