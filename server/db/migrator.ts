import type Database from 'better-sqlite3';
import { blockingMigrations } from '../../common/schema-compat.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /**
   * True when a release that does not know this migration still works on a database that has it
   * (an added table, index or nullable column that older code ignores). A deploy rolled back
   * over only such migrations keeps the live database; otherwise it puts back the database as
   * the older release left it. Unset means not compatible: say so only after checking.
   */
  readonly backwardCompatible?: boolean;
  up(db: Database.Database): void;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

function checkSequence(list: readonly Migration[]): void {
  list.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new MigrationError(
        `Migrations out of order: position ${i + 1} holds version ${m.version} (${m.name}); versions must run 1, 2, 3… without gaps`,
      );
    }
  });
}

interface AppliedRow {
  version: number;
  name: string;
  backward_compatible: number;
}

/**
 * Applies the migrations the database has not seen, each in its own transaction with its
 * record (which says whether older code still works with it, for the deploy's rollback).
 * Refuses a list out of order, a database whose migrations were applied in a different order,
 * and a database with versions this code does not know (a downgrade) unless every one of them
 * was recorded as backward compatible.
 */
export function runMigrations(db: Database.Database, list: readonly Migration[]): number[] {
  checkSequence(list);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const columns = db.prepare("SELECT name FROM pragma_table_info('schema_migrations')").all() as { name: string }[];
  if (!columns.some((c) => c.name === 'backward_compatible')) {
    db.exec('ALTER TABLE schema_migrations ADD COLUMN backward_compatible INTEGER NOT NULL DEFAULT 0');
  }
  const applied = db.prepare('SELECT version, name, backward_compatible FROM schema_migrations ORDER BY version').all() as AppliedRow[];
  // The rule the deploy applies too before it puts a release back (common/schema-compat.ts).
  const blocking = new Set(
    blockingMigrations(
      applied.map((r) => ({ version: r.version, name: r.name, backward_compatible: r.backward_compatible === 1 })),
      list.length,
    ).map((m) => m.version),
  );
  applied.forEach((row, i) => {
    const known = list[i];
    if (row.version !== i + 1) {
      throw new MigrationError(`Database migration ${row.version} (${row.name}) is out of sequence; refusing to start`);
    }
    if (!known) {
      if (!blocking.has(row.version)) return;
      throw new MigrationError(
        `Database has migration ${row.version} (${row.name}) that this version of Boothdeck does not know; refusing to start`,
      );
    }
    if (known.name !== row.name) {
      throw new MigrationError(
        `Database migration ${row.version} is "${row.name}" but this code calls it "${known.name}"; refusing to start`,
      );
    }
  });
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at, backward_compatible) VALUES (?, ?, ?, ?)');
  const done: number[] = [];
  for (const migration of list.slice(applied.length)) {
    db.transaction(() => {
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString(), migration.backwardCompatible === true ? 1 : 0);
    })();
    done.push(migration.version);
  }
  return done;
}
