import type { Migration } from '../migrator.js';

export const eventsAndPhotos: Migration = {
  version: 3,
  name: 'events-and-photos',
  // New tables only: older code never reads them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        slug TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        archived_at INTEGER
      );
      -- At most one open event: the current one.
      CREATE UNIQUE INDEX events_one_open ON events ((archived_at IS NULL)) WHERE archived_at IS NULL;
      CREATE INDEX events_created ON events (created_at);

      CREATE TABLE event_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX event_history_event ON event_history (event_id, at);

      CREATE TABLE photos (
        id TEXT PRIMARY KEY,
        stem TEXT NOT NULL UNIQUE,
        file TEXT NOT NULL,
        event_id INTEGER REFERENCES events (id),
        taken_at INTEGER NOT NULL,
        created_at INTEGER,
        mtime INTEGER NOT NULL,
        size INTEGER NOT NULL,
        processed INTEGER NOT NULL DEFAULT 1,
        visible INTEGER NOT NULL DEFAULT 1,
        missing INTEGER NOT NULL DEFAULT 0,
        printed_copies INTEGER NOT NULL DEFAULT 0,
        indexed_at INTEGER NOT NULL
      );
      CREATE INDEX photos_event_stem ON photos (event_id, stem DESC);
      CREATE INDEX photos_stem ON photos (stem DESC);
      CREATE INDEX photos_mtime ON photos (mtime);
    `);
  },
};
