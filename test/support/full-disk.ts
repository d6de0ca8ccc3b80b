import type { Db } from '../../server/db/database.js';

/**
 * A full disk as SQLite reports it: every statement that writes fails with SQLITE_FULL (the
 * code better-sqlite3 gives for "database or disk is full"), reads go on. Returns the way back.
 */
export function fillDisk(db: Db): () => void {
  const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as { run: (...args: unknown[]) => unknown };
  const run = statement.run;
  statement.run = function (this: { reader: boolean }, ...args: unknown[]) {
    if (!this.reader) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return run.apply(this, args);
  };
  return () => {
    statement.run = run;
  };
}
