import type { Migration } from '../migrator.js';

export const captureJobFailures: Migration = {
  version: 13,
  name: 'capture-job-failures',
  // New tables only: older code never reads them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      -- The guests' jobs the capture app failed, the newest few (the service trims them), so that
      -- the console still tells them after Boothdeck restarts. AUTOINCREMENT: an id is never
      -- given twice, and the operator's "seen" refers to ids.
      CREATE TABLE capture_job_failures (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        action_index INTEGER,
        name TEXT,
        title TEXT,
        in_a_row INTEGER NOT NULL,
        reasons TEXT NOT NULL,
        seen INTEGER NOT NULL DEFAULT 0
      );
      -- Actions whose last runs all failed. \`entry\` is the action as the capture app last held
      -- it (JSON): the capture app gives its actions no id, and this finds one again after a
      -- reorder moved it within its kind.
      CREATE TABLE capture_job_streaks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        action_index INTEGER,
        name TEXT,
        in_a_row INTEGER NOT NULL,
        last_at TEXT NOT NULL,
        entry TEXT NOT NULL
      );
    `);
  },
};
