import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { runMigrations, type Migration } from './migrator.js';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;

/**
 * The one place a database is opened. WAL keeps readers (the galleries) from blocking the
 * writers (indexer, print worker); the busy timeout absorbs short write contention.
 */
export function openDatabase(file: string, list: readonly Migration[] = migrations): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  try {
    runMigrations(db, list);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
