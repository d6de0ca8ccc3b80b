import type { Migration } from '../migrator.js';

export const initial: Migration = {
  version: 1,
  name: 'initial',
  // New tables only: older code never reads them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE admin_sessions (
        token_hash TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX admin_sessions_expires ON admin_sessions (expires_at);
    `);
  },
};
