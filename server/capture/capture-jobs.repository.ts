import type { ActionKind } from '../contract/actions.contract.js';
import type { CaptureJobFailure } from '../contract/capture.contract.js';
import type { Db } from '../db/database.js';
import { isObject } from '../core/util/json.js';
import { ACTION_KINDS } from './capture.types.js';

/** An action whose last runs all failed, with the entry that finds it again in the capture app's list. */
export interface StreakRow {
  id: number;
  kind: ActionKind;
  /** Its index among its kind now; null when it could not be found. */
  index: number | null;
  name: string | null;
  in_a_row: number;
  last_at: string;
  entry: Record<string, unknown>;
}

interface FailureDbRow {
  id: number;
  at: string;
  kind: string;
  action_index: number | null;
  name: string | null;
  title: string | null;
  in_a_row: number;
  reasons: string;
}

interface StreakDbRow {
  id: number;
  kind: string;
  action_index: number | null;
  name: string | null;
  in_a_row: number;
  last_at: string;
  entry: string;
}

const isKind = (v: unknown): v is ActionKind => typeof v === 'string' && (ACTION_KINDS as readonly string[]).includes(v);

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The failed jobs the console tells, and the failing actions' streaks, kept across Boothdeck's restarts. */
export class CaptureJobsRepository {
  constructor(private readonly db: Db) {}

  /** The newest failures first, at most `limit`. */
  failures(limit: number): CaptureJobFailure[] {
    const rows = this.db
      .prepare<[number], FailureDbRow>(
        'SELECT id, at, kind, action_index, name, title, in_a_row, reasons FROM capture_job_failures ORDER BY id DESC LIMIT ?',
      )
      .all(limit);
    return rows.flatMap((r) =>
      isKind(r.kind)
        ? [
            {
              id: r.id,
              at: r.at,
              trigger: { kind: r.kind, index: r.action_index },
              name: r.name,
              title: r.title,
              in_a_row: r.in_a_row,
              reasons: strings(parse(r.reasons)),
            },
          ]
        : [],
    );
  }

  /** The operator has seen every failure up to this id (0: none). */
  seenId(): number {
    return this.db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM capture_job_failures WHERE seen = 1').get()?.id ?? 0;
  }

  /** The id the next failure gets is above this one. */
  lastId(): number {
    return this.db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM capture_job_failures').get()?.id ?? 0;
  }

  markSeen(upTo: number): void {
    this.db.prepare('UPDATE capture_job_failures SET seen = 1 WHERE id <= ? AND seen = 0').run(upTo);
  }

  streaks(): StreakRow[] {
    const rows = this.db
      .prepare<[], StreakDbRow>('SELECT id, kind, action_index, name, in_a_row, last_at, entry FROM capture_job_streaks ORDER BY id')
      .all();
    return rows.flatMap((r) => {
      const entry = parse(r.entry);
      if (!isKind(r.kind) || !isObject(entry)) return [];
      return [{ id: r.id, kind: r.kind, index: r.action_index, name: r.name, in_a_row: r.in_a_row, last_at: r.last_at, entry }];
    });
  }

  /**
   * One failure and its action's streak (the one given by `streakId`, else a new one), in one
   * transaction; only the newest `keepFailures` failures and `keepStreaks` streaks stay.
   */
  recordFailure(
    failure: Omit<CaptureJobFailure, 'id'>,
    streak: Omit<StreakRow, 'id'>,
    streakId: number | null,
    keep: { failures: number; streaks: number },
  ): number {
    return this.db.transaction(() => {
      const id = Number(
        this.db
          .prepare(
            `INSERT INTO capture_job_failures (at, kind, action_index, name, title, in_a_row, reasons)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            failure.at,
            failure.trigger.kind,
            failure.trigger.index,
            failure.name,
            failure.title,
            failure.in_a_row,
            JSON.stringify(failure.reasons),
          ).lastInsertRowid,
      );
      this.db
        .prepare('DELETE FROM capture_job_failures WHERE id NOT IN (SELECT id FROM capture_job_failures ORDER BY id DESC LIMIT ?)')
        .run(keep.failures);
      if (streakId !== null) this.db.prepare('DELETE FROM capture_job_streaks WHERE id = ?').run(streakId);
      this.db
        .prepare('INSERT INTO capture_job_streaks (kind, action_index, name, in_a_row, last_at, entry) VALUES (?, ?, ?, ?, ?, ?)')
        .run(streak.kind, streak.index, streak.name, streak.in_a_row, streak.last_at, JSON.stringify(streak.entry));
      this.db
        .prepare('DELETE FROM capture_job_streaks WHERE id NOT IN (SELECT id FROM capture_job_streaks ORDER BY id DESC LIMIT ?)')
        .run(keep.streaks);
      return id;
    })();
  }

  deleteStreak(id: number): void {
    this.db.prepare('DELETE FROM capture_job_streaks WHERE id = ?').run(id);
  }

  /** The streaks where their actions are now (`rows`), those not among them dropped, in one transaction. */
  replaceStreaks(rows: readonly StreakRow[]): void {
    this.db.transaction(() => {
      const keep = new Set(rows.map((r) => r.id));
      for (const { id } of this.db.prepare<[], { id: number }>('SELECT id FROM capture_job_streaks').all()) {
        if (!keep.has(id)) this.db.prepare('DELETE FROM capture_job_streaks WHERE id = ?').run(id);
      }
      const update = this.db.prepare('UPDATE capture_job_streaks SET action_index = ?, name = ?, entry = ? WHERE id = ?');
      for (const r of rows) update.run(r.index, r.name, JSON.stringify(r.entry), r.id);
    })();
  }
}
