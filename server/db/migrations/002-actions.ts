import type { Migration } from '../migrator.js';

export const actions: Migration = {
  version: 2,
  name: 'actions',
  // New tables only: older code never reads them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      CREATE TABLE action_order (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        kinds TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE action_presets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        description TEXT NOT NULL DEFAULT '',
        actions TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `);
  },
};
