import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
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

/**
 * Applies the migrations the database has not seen, each in its own transaction with its
 * record. Refuses a list out of order, and a database that has versions this code does not
 * know (a downgrade) or that were applied in a different order.
 */
export function runMigrations(db: Database.Database, list: readonly Migration[]): number[] {
  checkSequence(list);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
  applied.forEach((row, i) => {
    const known = list[i];
    if (row.version !== i + 1 || !known) {
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
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const done: number[] = [];
  for (const migration of list.slice(applied.length)) {
    db.transaction(() => {
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    done.push(migration.version);
  }
  return done;
}
