import type {
  CarriedGuestSession,
  CarriedPrintJob,
  PrintCarryOver,
  SettledPrintJob,
} from '../../../server/contract/carry-over.contract.js';
import { blockingMigrations, type AppliedMigration } from '../../../common/schema-compat.js';
import type { SqliteRow } from '../database/sqlite-file.js';
import type { DatabasePlanKind } from './journal.js';

/**
 * The database goes with the release. Going back to a release puts its snapshot back only when
 * the live database holds a migration that release does not know and that is not backward
 * compatible (the migrator's own rule, common/schema-compat.ts); otherwise the live database
 * stays, with everything since. When the snapshot goes back, the print jobs still waiting in the
 * database it replaces are carried over (the restored release queues them again at its start).
 */

/** schema_migrations' rows as the reader gives them; undefined when they are not what the migrator writes. */
export function appliedMigrations(rows: readonly SqliteRow[] | undefined): AppliedMigration[] | undefined {
  if (!rows) return undefined;
  const out: AppliedMigration[] = [];
  for (const r of rows) {
    if (typeof r.version !== 'number' || typeof r.name !== 'string') return undefined;
    // A row written before the column was added reads as null: its default, not compatible.
    out.push({ version: r.version, name: r.name, backward_compatible: r.backward_compatible === 1 });
  }
  return out;
}

export interface DatabasePlan {
  plan: DatabasePlanKind;
  sentence: string;
}

/**
 * The database for going to TARGET, from the migrations of the live database and of the target's
 * snapshot (undefined: could not be read; null: there is no such database).
 */
export function databasePlan(
  target: string,
  live: AppliedMigration[] | undefined | null,
  snapshot: AppliedMigration[] | undefined | null,
): DatabasePlan {
  if (snapshot === null) return { plan: 'live', sentence: `Database: no snapshot of ${target}: the live database stays` };
  if (live === null) return { plan: 'live', sentence: 'Database: no live database yet: nothing to put back' };
  if (live === undefined || snapshot === undefined) {
    return {
      plan: 'snapshot',
      sentence: `Database: cannot compare the live database with the snapshot of ${target}: its snapshot goes back with it`,
    };
  }
  const known = snapshot.reduce((max, m) => Math.max(max, m.version), 0);
  const newer = live.filter((m) => m.version > known);
  if (newer.length === 0) return { plan: 'live', sentence: `Database: ${target} knows every migration of the live database: it stays` };
  const list = newer.map((m) => `${m.version}:${m.backward_compatible ? 1 : 0}`).join(' ');
  if (blockingMigrations(live, known).length === 0) {
    return {
      plan: 'live',
      sentence: `Database: the live one's newer migrations are all backward compatible (${list}): it stays, with everything since`,
    };
  }
  return {
    plan: 'snapshot',
    sentence: `Database: the live one has migrations ${target} does not know and that are not backward compatible (${list}): the database as it left it goes back with it`,
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

function jobOf(r: SqliteRow): CarriedPrintJob | undefined {
  const photo = text(r.photo_id);
  const copies = int(r.copies);
  const created = int(r.created_at);
  if (!photo || copies === null || copies < 1 || created === null) return undefined;
  if (r.state !== 'queued' && r.state !== 'printing') return undefined;
  return {
    photo_id: photo,
    copies,
    source: r.source === 'admin' ? 'admin' : 'guest',
    session_id: text(r.session_id),
    event_id: int(r.event_id),
    state: r.state,
    created_at: created,
    queued_at: int(r.queued_at) ?? created,
    started_at: int(r.started_at),
    cups_job_id: text(r.cups_job_id),
    client_address: text(r.client_address),
  };
}

const MOVED_ON: readonly string[] = ['printing', 'done', 'failed', 'cancelled'];

/** A job of the replaced database in a state past waiting; undefined otherwise. */
function settledOf(r: SqliteRow): SettledPrintJob | undefined {
  const photo = text(r.photo_id);
  const copies = int(r.copies);
  const created = int(r.created_at);
  if (!photo || copies === null || created === null || typeof r.state !== 'string' || !MOVED_ON.includes(r.state)) return undefined;
  return {
    photo_id: photo,
    created_at: created,
    copies,
    state: r.state as SettledPrintJob['state'],
    started_at: int(r.started_at),
    finished_at: int(r.finished_at),
    cups_job_id: text(r.cups_job_id),
    error: text(r.error),
  };
}

/** One job, whichever database holds it (ids are not kept from one database to the other). */
const jobKey = (j: Partial<Record<'photo_id' | 'created_at' | 'copies', unknown>>): string =>
  `${String(j.photo_id)}|${String(j.created_at)}|${String(j.copies)}`;

/**
 * The print jobs waiting in the replaced database (queued, or handed to CUPS) that the restored
 * one does not have, and the guest sessions they count against; and the jobs the restored one
 * still has waiting that moved on meanwhile (printed, cancelled…), which it must not print again.
 */
export function printCarryOver(
  replaced: { jobs: readonly SqliteRow[]; sessions: readonly SqliteRow[] },
  restoredJobs: readonly SqliteRow[],
  run: string,
  now: Date,
): PrintCarryOver {
  const have = new Set(restoredJobs.map(jobKey));
  const jobs = replaced.jobs.flatMap((r) => {
    const job = jobOf(r);
    return job && !have.has(jobKey(job)) ? [job] : [];
  });
  const wanted = new Set(jobs.map((j) => j.session_id).filter((s): s is string => s !== null));
  const sessions: CarriedGuestSession[] = replaced.sessions.flatMap((s) => {
    const id = text(s.id);
    const created = int(s.created_at);
    const used = int(s.copies_used);
    return id && wanted.has(id) && created !== null && used !== null ? [{ id, created_at: created, copies_used: used }] : [];
  });
  const waiting = new Map(restoredJobs.map((r) => [jobKey(r), r.state]));
  const settled = replaced.jobs.flatMap((r) => {
    const job = settledOf(r);
    const before = job && waiting.get(jobKey(job));
    // Queued there and past it here, or handed to CUPS there and finished here.
    const movedOn = job && (before === 'queued' || (before === 'printing' && job.state !== 'printing'));
    return movedOn ? [job] : [];
  });
  return { written_at: now.toISOString(), run, jobs, sessions, settled };
}
