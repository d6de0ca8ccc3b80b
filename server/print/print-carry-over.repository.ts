import type { Db } from '../db/database.js';
import type { CarriedGuestSession, CarriedPrintJob, SettledPrintJob } from '../contract/carry-over.contract.js';

/**
 * The SQL of the print jobs a deploy's rollback carries into a restored database: queued again in
 * one transaction, each once (a job already there, by its photo, time and copies, is skipped: a
 * carry-over read twice after a crash adds nothing); and the jobs it still has waiting that were
 * printed or ended under the release rolled back, settled (a job not waiting here is left alone).
 */
export class PrintCarryOverRepository {
  constructor(private readonly db: Db) {}

  /**
   * Settles the jobs that moved on, queues the carried ones and records their sessions' spent
   * copies, in one transaction; answers how many jobs were added and settled.
   */
  carry(
    jobs: readonly CarriedPrintJob[],
    sessions: readonly CarriedGuestSession[],
    settled: readonly SettledPrintJob[],
    now: number,
  ): { added: number; settled: number } {
    const columns = new Set(
      (this.db.prepare("SELECT name FROM pragma_table_info('print_jobs')").all() as { name: string }[]).map((c) => c.name),
    );
    const eventExists = this.db.prepare<[number], { n: number }>('SELECT 1 AS n FROM events WHERE id = ?');
    const sessionExists = this.db.prepare<[string], { n: number }>('SELECT 1 AS n FROM guest_sessions WHERE id = ?');
    const present = this.db.prepare<[string, number, number], { n: number }>(
      'SELECT 1 AS n FROM print_jobs WHERE photo_id = ? AND created_at = ? AND copies = ?',
    );
    const addSession = this.db.prepare(
      'INSERT INTO guest_sessions (id, created_at, copies_used) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET copies_used = MAX(copies_used, excluded.copies_used)',
    );
    // The release restored may predate a column (client_address): only the columns it has are written.
    const optional = ['client_address'].filter((c) => columns.has(c));
    const insert = this.db.prepare(
      `INSERT INTO print_jobs (photo_id, copies, source, session_id, event_id, state, created_at, queued_at, updated_at, started_at, cups_job_id${optional.map((c) => `, ${c}`).join('')})
       VALUES (@photo_id, @copies, @source, @session_id, @event_id, @state, @created_at, @queued_at, @updated_at, @started_at, @cups_job_id${optional.map((c) => `, @${c}`).join('')})`,
    );
    // Only a job still waiting here moves: read again, a carry-over changes nothing more.
    const settle = this.db.prepare(
      `UPDATE print_jobs SET state = @state, started_at = COALESCE(@started_at, started_at), finished_at = @finished_at,
         cups_job_id = COALESCE(@cups_job_id, cups_job_id), error = @error, updated_at = @updated_at
       WHERE photo_id = @photo_id AND created_at = @created_at AND copies = @copies AND state IN ('queued', 'printing') AND state != @state`,
    );
    return this.db.transaction(() => {
      let moved = 0;
      for (const job of settled) moved += settle.run({ ...job, updated_at: now }).changes;
      for (const s of sessions) addSession.run(s.id, s.created_at, s.copies_used);
      let added = 0;
      for (const job of jobs) {
        if (present.get(job.photo_id, job.created_at, job.copies)) continue;
        insert.run({
          ...job,
          // An event or a session created under the rolled-back release is not in this database.
          event_id: job.event_id !== null && eventExists.get(job.event_id) ? job.event_id : null,
          session_id: job.session_id !== null && sessionExists.get(job.session_id) ? job.session_id : null,
          updated_at: now,
        });
        added++;
      }
      return { added, settled: moved };
    })();
  }
}
