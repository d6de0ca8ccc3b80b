import type { Migration } from '../migrator.js';

export const printing: Migration = {
  version: 4,
  name: 'printing',
  // New tables only: older code never reads them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      -- Guest sessions: the signed cookie names a row; copies_used is what the quota counts.
      CREATE TABLE guest_sessions (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        copies_used INTEGER NOT NULL DEFAULT 0 CHECK (copies_used >= 0)
      );

      CREATE TABLE print_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        photo_id TEXT NOT NULL,
        copies INTEGER NOT NULL CHECK (copies > 0),
        source TEXT NOT NULL CHECK (source IN ('guest', 'admin')),
        session_id TEXT REFERENCES guest_sessions (id),
        event_id INTEGER REFERENCES events (id),
        state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'done', 'failed', 'cancelled')),
        created_at INTEGER NOT NULL,
        queued_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        cups_job_id TEXT,
        error TEXT,
        error_detail TEXT,
        -- Cleared finished jobs leave the operator's list but still count.
        cleared INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX print_jobs_state ON print_jobs (state, queued_at, id);
      CREATE INDEX print_jobs_finished ON print_jobs (state, finished_at);

      -- When each counter was last reset: copies finished before it no longer count.
      CREATE TABLE print_counter_resets (
        counter TEXT PRIMARY KEY CHECK (counter IN ('event', 'today', 'total')),
        reset_at INTEGER NOT NULL
      );
    `);
  },
};
