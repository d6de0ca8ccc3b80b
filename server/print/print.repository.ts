import type { Db } from '../db/database.js';
import type { PrintJobState } from '../contract/print.contract.js';

export interface PrintJobRow {
  id: number;
  photo_id: string;
  copies: number;
  source: 'guest' | 'admin';
  session_id: string | null;
  event_id: number | null;
  state: PrintJobState;
  created_at: number;
  /** When it entered the queue (again, after a retry): the queue's order. */
  queued_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  cups_job_id: string | null;
  error: string | null;
  error_detail: string | null;
  cleared: number;
  /** The client address a guest's job came from (null for the operator's). */
  client_address: string | null;
}

export type CounterName = 'event' | 'today' | 'total';

export type Reservation =
  { ok: true; job: PrintJobRow; remaining: number } | { ok: false; remaining: number; scope: 'session' | 'address' };

/** A guest's request as the quota sees it. */
export interface GuestQuota {
  sessionId: string;
  address: string;
  eventId: number | null;
  /** Copies per session. */
  quota: number;
  /** Copies per client address and event. */
  addressQuota: number;
}

/** The job a person must settle: CUPS forgot it, printed or not. */
export const UNKNOWN_OUTCOME = 'unknown_outcome';

const ACTIVE = "state IN ('queued', 'printing')";

/** The print queue, the guest sessions' quota and the counters. All print SQL lives here. */
export class PrintRepository {
  constructor(private readonly db: Db) {}

  find(id: number): PrintJobRow | undefined {
    return this.db.prepare<[number], PrintJobRow>('SELECT * FROM print_jobs WHERE id = ?').get(id);
  }

  sessionUsed(sessionId: string): number {
    return this.db.prepare<[string], { n: number }>('SELECT copies_used AS n FROM guest_sessions WHERE id = ?').get(sessionId)?.n ?? 0;
  }

  private insertJob(
    job: Omit<
      PrintJobRow,
      'id' | 'state' | 'queued_at' | 'updated_at' | 'started_at' | 'finished_at' | 'cups_job_id' | 'error' | 'error_detail' | 'cleared'
    >,
  ): PrintJobRow {
    const info = this.db
      .prepare(
        `INSERT INTO print_jobs (photo_id, copies, source, session_id, event_id, client_address, state, created_at, queued_at, updated_at)
         VALUES (@photo_id, @copies, @source, @session_id, @event_id, @client_address, 'queued', @created_at, @created_at, @created_at)`,
      )
      .run(job);
    const row = this.find(Number(info.lastInsertRowid));
    if (!row) throw new Error('print job vanished after insert');
    return row;
  }

  /** Copies a client address has ordered for an event (cancelled jobs give theirs back). */
  addressUsed(address: string, eventId: number | null): number {
    return (
      this.db
        .prepare<[string, number | null], { n: number }>(
          "SELECT COALESCE(SUM(copies), 0) AS n FROM print_jobs WHERE client_address = ? AND event_id IS ? AND state != 'cancelled'",
        )
        .get(address, eventId)?.n ?? 0
    );
  }

  /** What a guest may still order: the session's quota and the address's, whichever is smaller. */
  remaining(q: Omit<GuestQuota, 'sessionId'> & { sessionId: string | undefined }): { remaining: number; scope: 'session' | 'address' } {
    const bySession = Math.max(0, q.quota - (q.sessionId === undefined ? 0 : this.sessionUsed(q.sessionId)));
    const byAddress = Math.max(0, q.addressQuota - this.addressUsed(q.address, q.eventId));
    return byAddress < bySession ? { remaining: byAddress, scope: 'address' } : { remaining: bySession, scope: 'session' };
  }

  /**
   * Checks the session's and the address's quota and reserves the copies with the job, in one
   * immediate transaction: no other writer can slip between the check and the reservation. The
   * session's row is made here, when a guest first prints, never for a mere visit.
   */
  reserveGuest(input: GuestQuota & { photoId: string; copies: number; now: number }): Reservation {
    return this.db
      .transaction((): Reservation => {
        const { remaining, scope } = this.remaining(input);
        if (input.copies > remaining) return { ok: false, remaining, scope };
        this.db.prepare('INSERT OR IGNORE INTO guest_sessions (id, created_at) VALUES (?, ?)').run(input.sessionId, input.now);
        this.db.prepare('UPDATE guest_sessions SET copies_used = copies_used + ? WHERE id = ?').run(input.copies, input.sessionId);
        const job = this.insertJob({
          photo_id: input.photoId,
          copies: input.copies,
          source: 'guest',
          session_id: input.sessionId,
          event_id: input.eventId,
          client_address: input.address,
          created_at: input.now,
        });
        return { ok: true, job, remaining: remaining - input.copies };
      })
      .immediate();
  }

  /**
   * Session rows no job needs any more and older than a cookie lives (or with nothing used):
   * removed, so the table holds only sessions that printed.
   */
  pruneSessions(before: number): number {
    return this.db
      .prepare(
        `DELETE FROM guest_sessions WHERE (created_at < ? OR copies_used = 0)
           AND NOT EXISTS (SELECT 1 FROM print_jobs WHERE print_jobs.session_id = guest_sessions.id)`,
      )
      .run(before).changes;
  }

  insertAdmin(input: { photoId: string; copies: number; eventId: number | null; now: number }): PrintJobRow {
    return this.insertJob({
      photo_id: input.photoId,
      copies: input.copies,
      source: 'admin',
      session_id: null,
      event_id: input.eventId,
      client_address: null,
      created_at: input.now,
    });
  }

  /** A person says a job CUPS forgot did come out: counted once, like a printed job. */
  markCounted(id: number, now: number): boolean {
    return this.db.transaction((): boolean => {
      const job = this.find(id);
      if (!job || job.state !== 'failed' || job.error !== UNKNOWN_OUTCOME) return false;
      this.db
        .prepare("UPDATE print_jobs SET state = 'done', error = NULL, error_detail = NULL, finished_at = ?, updated_at = ? WHERE id = ?")
        .run(now, now, id);
      this.db.prepare('UPDATE photos SET printed_copies = printed_copies + ? WHERE id = ?').run(job.copies, job.photo_id);
      return true;
    })();
  }

  /** The newest still that can be printed, in the event when one is given (the test page's photo). */
  newestPrintablePhoto(eventId: number | null): string | undefined {
    return this.db
      .prepare<[number | null, number | null], { id: string }>(
        `SELECT id FROM photos WHERE visible = 1 AND missing = 0 AND processed = 1 AND kind IN ('photo', 'collage')
           AND (? IS NULL OR event_id = ?) ORDER BY stem DESC LIMIT 1`,
      )
      .get(eventId, eventId)?.id;
  }

  unknownCount(): number {
    return (
      this.db
        .prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM print_jobs WHERE state = 'failed' AND error = ? AND cleared = 0")
        .get(UNKNOWN_OUTCOME)?.n ?? 0
    );
  }

  /** The job the worker owns: one in `printing` first (after a restart), else the oldest queued. */
  next(): PrintJobRow | undefined {
    return (
      this.db.prepare<[], PrintJobRow>("SELECT * FROM print_jobs WHERE state = 'printing' ORDER BY id LIMIT 1").get() ??
      this.db.prepare<[], PrintJobRow>("SELECT * FROM print_jobs WHERE state = 'queued' ORDER BY queued_at, id LIMIT 1").get()
    );
  }

  /** Jobs that will go before this one. */
  position(job: PrintJobRow): number {
    if (job.state !== 'queued') return 0;
    return (
      this.db
        .prepare<[number, number, number], { n: number }>(
          `SELECT COUNT(*) AS n FROM print_jobs WHERE state = 'printing' OR (state = 'queued' AND (queued_at < ? OR (queued_at = ? AND id < ?)))`,
        )
        .get(job.queued_at, job.queued_at, job.id)?.n ?? 0
    );
  }

  hasWork(): boolean {
    return this.db.prepare(`SELECT 1 FROM print_jobs WHERE ${ACTIVE} LIMIT 1`).get() !== undefined;
  }

  markPrinting(id: number, now: number): boolean {
    return (
      this.db
        .prepare(
          "UPDATE print_jobs SET state = 'printing', started_at = ?, updated_at = ?, error = NULL, error_detail = NULL WHERE id = ? AND state = 'queued'",
        )
        .run(now, now, id).changes > 0
    );
  }

  setCupsJob(id: number, cupsJobId: string, now: number): void {
    this.db.prepare('UPDATE print_jobs SET cups_job_id = ?, updated_at = ? WHERE id = ?').run(cupsJobId, now, id);
  }

  /** A job that never reached CUPS goes back to the head of the queue. */
  requeue(id: number, now: number): void {
    this.db
      .prepare("UPDATE print_jobs SET state = 'queued', started_at = NULL, updated_at = ? WHERE id = ? AND state = 'printing'")
      .run(now, id);
  }

  /** Done, and the photo's copy count raised, together: a copy is counted exactly once. */
  markDone(id: number, now: number): boolean {
    return this.db.transaction((): boolean => {
      const job = this.find(id);
      if (!job || job.state !== 'printing') return false;
      this.db.prepare("UPDATE print_jobs SET state = 'done', finished_at = ?, updated_at = ? WHERE id = ?").run(now, now, id);
      this.db.prepare('UPDATE photos SET printed_copies = printed_copies + ? WHERE id = ?').run(job.copies, job.photo_id);
      return true;
    })();
  }

  markFailed(id: number, error: string, detail: string, now: number): void {
    this.db
      .prepare(
        "UPDATE print_jobs SET state = 'failed', error = ?, error_detail = ?, finished_at = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'printing')",
      )
      .run(error, detail.slice(0, 500), now, now, id);
  }

  /** Cancels a waiting or failed job and gives the guest's copies back. */
  cancel(id: number, now: number, fromPrinting = false): PrintJobRow | undefined {
    return this.db.transaction((): PrintJobRow | undefined => {
      const job = this.find(id);
      const allowed = job && (job.state === 'queued' || job.state === 'failed' || (fromPrinting && job.state === 'printing'));
      if (!job || !allowed) return undefined;
      this.db.prepare("UPDATE print_jobs SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE id = ?").run(now, now, id);
      if (job.session_id) {
        this.db.prepare('UPDATE guest_sessions SET copies_used = MAX(0, copies_used - ?) WHERE id = ?').run(job.copies, job.session_id);
      }
      return this.find(id);
    })();
  }

  /** A failed job goes back to the end of the queue; its copies stay reserved. */
  retry(id: number, now: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE print_jobs SET state = 'queued', error = NULL, error_detail = NULL, cups_job_id = NULL, started_at = NULL,
             finished_at = NULL, queued_at = ?, updated_at = ? WHERE id = ? AND state = 'failed'`,
        )
        .run(now, now, id).changes > 0
    );
  }

  clearFinished(): number {
    return this.db.prepare("UPDATE print_jobs SET cleared = 1 WHERE state IN ('done', 'cancelled') AND cleared = 0").run().changes;
  }

  /** The operator's list: every job not cleared, newest first. */
  list(limit: number): PrintJobRow[] {
    return this.db.prepare<[number], PrintJobRow>('SELECT * FROM print_jobs WHERE cleared = 0 ORDER BY id DESC LIMIT ?').all(limit);
  }

  stateCounts(): Record<PrintJobState, number> {
    const counts: Record<PrintJobState, number> = { queued: 0, printing: 0, done: 0, failed: 0, cancelled: 0 };
    for (const row of this.db
      .prepare<[], { state: PrintJobState; n: number }>('SELECT state, COUNT(*) AS n FROM print_jobs GROUP BY state')
      .all()) {
      counts[row.state] = row.n;
    }
    return counts;
  }

  /** Copies printed since `from` (ms), for one event or all. */
  copiesPrinted(from: number, eventId?: number): number {
    const sql = `SELECT COALESCE(SUM(copies), 0) AS n FROM print_jobs WHERE state = 'done' AND finished_at >= ?${eventId === undefined ? '' : ' AND event_id = ?'}`;
    const params = eventId === undefined ? [from] : [from, eventId];
    return this.db.prepare<unknown[], { n: number }>(sql).get(...params)?.n ?? 0;
  }

  resetAt(counter: CounterName): number {
    return (
      this.db.prepare<[string], { reset_at: number }>('SELECT reset_at FROM print_counter_resets WHERE counter = ?').get(counter)
        ?.reset_at ?? 0
    );
  }

  reset(counter: CounterName, now: number): void {
    this.db
      .prepare(
        'INSERT INTO print_counter_resets (counter, reset_at) VALUES (?, ?) ON CONFLICT(counter) DO UPDATE SET reset_at = excluded.reset_at',
      )
      .run(counter, now);
  }
}
