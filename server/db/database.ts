import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { keepBounded } from '../core/util/bounded-map.js';
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
  // FULL: a committed write (a CUPS job id, a quota) survives a power cut. With NORMAL in WAL
  // mode the last commits may be lost while CUPS already has the job: it would print twice.
  db.pragma('synchronous = FULL');
  cacheStatements(db);
  try {
    runMigrations(db, list);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Distinct SQL texts kept prepared; the repositories' queries are far fewer, filters included. */
const STATEMENT_CACHE = 256;

/**
 * Makes `db.prepare` hand back the statement already compiled for the same SQL. Repositories
 * prepare where they query, and compiling took a tenth of a gallery thumbnail request. Safe
 * because no statement here is iterated (a busy statement cannot be reused) or switched to
 * raw or pluck mode.
 */
function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  const cached = (sql: string): Database.Statement => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare(sql);
      keepBounded(cache, sql, statement, STATEMENT_CACHE);
    }
    return statement;
  };
  db.prepare = cached as typeof db.prepare;
}
