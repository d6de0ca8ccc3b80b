import type { Migration } from '../migrator.js';

export const publishLocks: Migration = {
  version: 12,
  name: 'publish-locks',
  // A new table and a new column: older code reads neither.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      -- An event's gallery password, as what it takes to seal the files: the PBKDF2 salt and
      -- iteration count (both written into the page) and the derived AES key. Never the password.
      -- Apart from the settings, so no backup or answer built from them can carry it.
      CREATE TABLE publish_locks (
        event_id INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
        salt BLOB NOT NULL,
        iterations INTEGER NOT NULL,
        key BLOB NOT NULL,
        set_at INTEGER NOT NULL
      );
      -- The event's "Tout télécharger" ZIP online (JSON: what it holds, its name, size and time).
      ALTER TABLE publish_events ADD COLUMN zip TEXT;
    `);
  },
};
