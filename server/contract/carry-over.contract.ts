/**
 * What a deploy's rollback carries into a restored database (types only). When a rollback puts a
 * release's database snapshot back, the print jobs still waiting in the database it replaces are
 * written to `<data folder>/carry-over/print-jobs-<run>.json`; the release that starts next queues
 * them again (server/print/print-carry-over.ts). Photos need nothing: the start's rescan finds
 * their files in the capture app's folder again.
 */

export interface CarriedPrintJob {
  photo_id: string;
  copies: number;
  source: 'guest' | 'admin';
  session_id: string | null;
  event_id: number | null;
  /** A job `printing` was handed to CUPS (or about to be): it is settled with CUPS, never resent blindly. */
  state: 'queued' | 'printing';
  created_at: number;
  queued_at: number;
  started_at: number | null;
  cups_job_id: string | null;
  client_address: string | null;
}

/**
 * A job both databases hold that moved on under the release rolled back (handed to CUPS, printed,
 * failed, cancelled) while the restored database, older, still has it waiting: it takes that
 * state, so that it is never printed twice.
 */
export interface SettledPrintJob {
  photo_id: string;
  created_at: number;
  copies: number;
  state: 'printing' | 'done' | 'failed' | 'cancelled';
  started_at: number | null;
  finished_at: number | null;
  cups_job_id: string | null;
  error: string | null;
}

export interface CarriedGuestSession {
  id: string;
  created_at: number;
  copies_used: number;
}

export interface PrintCarryOver {
  /** When the deploy wrote it (UTC, ISO 8601): a carry-over found much later is not printed blindly. */
  written_at: string;
  /** The deploy run that restored the database. */
  run: string;
  jobs: CarriedPrintJob[];
  /** Jobs the restored database would print again (absent from carry-overs written before it). */
  settled?: SettledPrintJob[];
  /** The guest sessions those jobs count against, so that their quota stays spent. */
  sessions: CarriedGuestSession[];
}
