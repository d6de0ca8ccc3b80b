import type { Migration } from '../migrator.js';

export const publish: Migration = {
  version: 8,
  name: 'publish',
  // New tables only: older code never reads them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      -- One row per event put online: its unguessable path and what the operator asked for.
      CREATE TABLE publish_events (
        event_id INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
        token TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL CHECK (state IN ('publishing', 'withdrawing', 'withdrawn')),
        requested_at INTEGER NOT NULL,
        -- The page online lists what was uploaded when it was written; 1 once it is out of date.
        index_stale INTEGER NOT NULL DEFAULT 1,
        index_at INTEGER
      );
      -- One row per photo of a published event, the file names it has online and where it stands.
      -- Names carry the photo's version: a name is written once and never overwritten.
      CREATE TABLE publish_files (
        event_id INTEGER NOT NULL REFERENCES publish_events (event_id) ON DELETE CASCADE,
        photo_id TEXT NOT NULL,
        version TEXT NOT NULL,
        names TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'online', 'removing')),
        attempts INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (event_id, photo_id, version)
      );
      CREATE INDEX publish_files_state ON publish_files (state, event_id);
    `);
  },
};
