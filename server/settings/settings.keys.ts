import type { AdminKey } from '../contract/session.contract.js';
import type { Settings } from '../contract/settings.contract.js';
import { OwnerKeyRequiredError, ValidationError } from '../core/errors.js';
import { isObject } from '../core/util/json.js';

/**
 * The settings the event key (the renter's) may change: the guests' quota and copies within the
 * owner's limits, the print layout, the capture app's delete button, and how the guests' gallery
 * shows a collage's shots (the event's own presentation). docs/security.md and docs/api.md list
 * the same fields (test/unit/event-key-fields.test.ts holds them to it). Every other field — the
 * hardware, printing on or off, the owner's limits, the printer and paper, the prints per address,
 * the gallery's public address (which the admin API's Host check trusts) — needs the owner's key.
 * A field is checked only when its value changes: the console may send a whole section back.
 */
export const EVENT_SETTINGS_FIELDS: readonly string[] = [
  'print.quota',
  'print.max_copies',
  'print.layout',
  'gallery.show_delete',
  'gallery.collage_parts',
];

/** The dotted names of the leaves whose values differ between two settings objects. */
export function changedFields(before: unknown, after: unknown, prefix = ''): string[] {
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) => changedFields(before[key], after[key], prefix ? `${prefix}.${key}` : key));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}

/** Refuses a change the key does not cover, naming the fields that need the owner's key. */
export function checkSettingsKey(before: Settings, after: Settings, key: AdminKey): void {
  if (key === 'owner') return;
  const fields = changedFields(before, after).filter((field) => !EVENT_SETTINGS_FIELDS.includes(field));
  if (fields.length > 0) throw new OwnerKeyRequiredError(`Changing ${fields.join(', ')} needs the owner's key`, { fields });
}

/**
 * The owner's limits bound what the event key sets: a quota or a copies bound above them is
 * refused, naming the field; a limit lowered below the current value brings the value down with it.
 */
export function applyPrintLimits(next: Settings, changed: readonly string[]): Settings {
  const { print } = next;
  const bounded = [
    ['quota', print.limits.quota],
    ['max_copies', print.limits.max_copies],
  ] as const;
  const issues = bounded
    .filter(([field, limit]) => print[field] > limit && changed.includes(`print.${field}`))
    .map(([field, limit]) => ({ field: `print.${field}`, message: `must be at most ${limit} (the owner's limit)` }));
  if (issues.length > 0)
    throw new ValidationError(`Invalid settings: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues });
  return {
    ...next,
    print: { ...print, quota: Math.min(print.quota, print.limits.quota), max_copies: Math.min(print.max_copies, print.limits.max_copies) },
  };
}
