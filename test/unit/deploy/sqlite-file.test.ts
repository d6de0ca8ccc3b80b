import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesOf, readTable, SqliteReadError, tableColumns, type ByteSource } from '../../../deploy/src/database/sqlite-file.js';
import { readDatabase } from '../../../deploy/src/booth/sqlite-disk.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-file-'));
  dirs.push(dir);
  return dir;
}

/** The files as they are on disk now (a copy, as a deploy takes one): the main file and its WAL, if any. */
function filesOf(file: string): { main: Buffer; wal: Buffer | undefined } {
  const copy = path.join(folder(), 'copy.sqlite');
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return { main: readFileSync(copy), wal: existsSync(`${copy}-wal`) ? readFileSync(`${copy}-wal`) : undefined };
}

/** A database as Boothdeck opens it (WAL), never checkpointed: what a release killed mid-run leaves behind. */
function liveDatabase(): { db: Database.Database; file: string } {
  const file = path.join(folder(), 'boothdeck.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  return { db, file };
}

const migrationsTable = `CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`;

describe('reading a table from SQLite files without SQLite', () => {
  it('reads the migrations a database holds, committed in the WAL only, the column added later included', () => {
    const { db, file } = liveDatabase();
    db.exec(migrationsTable);
    db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 'then')").run();
    db.exec('ALTER TABLE schema_migrations ADD COLUMN backward_compatible INTEGER NOT NULL DEFAULT 0');
    db.prepare("INSERT INTO schema_migrations VALUES (2, 'printing', 'now', 1)").run();
    expect(existsSync(`${file}-wal`)).toBe(true);
    const rows = readTable(filesOf(file), 'schema_migrations');
    expect(rows).toEqual([
      { version: 1, name: 'initial', applied_at: 'then', backward_compatible: null },
      { version: 2, name: 'printing', applied_at: 'now', backward_compatible: 1 },
    ]);
    db.close();
  });

  it('reads what a checkpoint left in the main file, and ignores a transaction not committed', () => {
    const { db, file } = liveDatabase();
    db.exec(migrationsTable);
    db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 'then')").run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.prepare("INSERT INTO schema_migrations VALUES (2, 'second', 'now')").run();
    const files = filesOf(file);
    // A write cut before its commit frame: the WAL's tail without the commit.
    const frame = 24 + 4096;
    const torn = { main: files.main, wal: files.wal!.subarray(0, files.wal!.length - frame) };
    expect(readTable(files, 'schema_migrations')?.map((r) => r.version)).toEqual([1, 2]);
    expect(readTable(torn, 'schema_migrations')?.map((r) => r.version)).toEqual([1]);
    db.close();
  });

  it('walks a table of many pages (interior pages, overflowing rows) as SQLite returns it', () => {
    const { db, file } = liveDatabase();
    db.exec(`CREATE TABLE print_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, photo_id TEXT NOT NULL, copies INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'done')), created_at INTEGER NOT NULL, error_detail TEXT, ratio REAL, big BLOB)`);
    const insert = db.prepare(
      'INSERT INTO print_jobs (photo_id, copies, state, created_at, error_detail, ratio, big) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        insert.run(
          `photo-${i}`,
          1 + (i % 3),
          i % 2 ? 'queued' : 'done',
          1_700_000_000_000 + i,
          i % 500 === 0 ? 'é'.repeat(6000) : null,
          i / 7,
          i % 999 === 0 ? Buffer.alloc(9000, i % 256) : null,
        );
      }
    })();
    db.prepare('DELETE FROM print_jobs WHERE id % 10 = 0').run();
    const expected = db.prepare('SELECT * FROM print_jobs ORDER BY id').all() as Record<string, unknown>[];
    const rows = readTable(filesOf(file), 'print_jobs')!;
    expect(rows).toHaveLength(expected.length);
    expect(rows.map((r) => ({ ...r, big: r.big instanceof Uint8Array ? Buffer.from(r.big) : r.big }))).toEqual(expected);
    db.close();
  });

  it('answers undefined for a table the database does not have', () => {
    const { db, file } = liveDatabase();
    db.exec('CREATE TABLE other (x)');
    expect(readTable(filesOf(file), 'schema_migrations')).toBeUndefined();
    db.close();
  });

  it('refuses what is not a database, and a damaged file, rather than guessing', () => {
    expect(() => readTable({ main: Buffer.from('not a database at all, not even close to one'.repeat(5)) }, 'x')).toThrow(SqliteReadError);
    const { db, file } = liveDatabase();
    db.exec(migrationsTable);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const main = readFileSync(file);
    main.writeUInt8(0x42, 4096); // the second page's type byte: the table's root no longer is a table page
    expect(() => readTable({ main }, 'schema_migrations')).toThrow(SqliteReadError);
  });

  it('reads the columns of a table definition, and which one is the rowid', () => {
    expect(tableColumns(migrationsTable)).toEqual({ columns: ['version', 'name', 'applied_at'], rowidAlias: 'version' });
    expect(tableColumns('CREATE TABLE t ("a b" TEXT, c INTEGER, d TEXT DEFAULT (\'x,y\'), PRIMARY KEY (c), CHECK (c > 0))')).toEqual({
      columns: ['a b', 'c', 'd'],
      rowidAlias: 'c',
    });
    expect(tableColumns('CREATE TABLE t (k INTEGER PRIMARY KEY DESC, v)').rowidAlias).toBeUndefined();
  });

  it('reads a WAL that a checkpoint restarted: the new frames count, the older ones left behind it do not', () => {
    const { db, file } = liveDatabase();
    db.exec(migrationsTable);
    const insert = db.prepare("INSERT INTO schema_migrations VALUES (?, 'm', 'then')");
    // Many frames, in many transactions; then a checkpoint that lets the next writer start the WAL over.
    for (let v = 1; v <= 40; v++) insert.run(v);
    db.pragma('wal_checkpoint(RESTART)');
    const long = filesOf(file).wal!.length;
    db.prepare('DELETE FROM schema_migrations WHERE version > 3').run();
    const files = filesOf(file);
    // The WAL was written from its start again: the older frames still follow the new ones.
    expect(files.wal!.length).toBe(long);
    expect(readTable(files, 'schema_migrations')?.map((r) => r.version)).toEqual([1, 2, 3]);
    db.close();
  });

  it('stops at a page reached twice (a loop in a damaged or hostile file) instead of walking it forever', () => {
    const { db, file } = liveDatabase();
    db.exec('CREATE TABLE print_jobs (id INTEGER PRIMARY KEY, photo_id TEXT)');
    const insert = db.prepare('INSERT INTO print_jobs (photo_id) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`photo-${i}`);
    })();
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'print_jobs'").get() as { rootpage: number }).rootpage;
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const main = readFileSync(file);
    const at = (root - 1) * 4096;
    expect(main[at]).toBe(0x05);
    // The right-most child of the table's root: the root itself.
    main.writeUInt32BE(root, at + 8);
    expect(() => readTable({ main }, 'print_jobs')).toThrow(/page \d+ is reached twice: the table loops/);
  });

  it('refuses a row longer than the database could hold before allocating anything for it', () => {
    const { db, file } = liveDatabase();
    db.exec('CREATE TABLE print_jobs (id INTEGER PRIMARY KEY, photo_id TEXT)');
    db.prepare('INSERT INTO print_jobs (photo_id) VALUES (?)').run('x'.repeat(200));
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'print_jobs'").get() as { rootpage: number }).rootpage;
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const main = readFileSync(file);
    const page = (root - 1) * 4096;
    const cell = page + main.readUInt16BE(page + 8);
    // The row's length, a 2-byte varint: now 16,383 bytes, more than the two pages of this database.
    expect(main[cell]! & 0x80).toBe(0x80);
    main[cell] = 0xff;
    main[cell + 1] = 0x7f;
    expect(() => readTable({ main }, 'print_jobs')).toThrow(/a row of 16383 bytes is longer than it can be/);
  });

  it('reads a file a page at a time, never whole: the migrations of a large database cost a few pages', () => {
    const { db, file } = liveDatabase();
    db.exec(migrationsTable);
    db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 'then')").run();
    db.exec('CREATE TABLE photos (id TEXT, data BLOB)');
    const insert = db.prepare('INSERT INTO photos VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run(`p${i}`, Buffer.alloc(2000, i % 256));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const whole = readFileSync(file);
    let read = 0;
    const counted: ByteSource = {
      length: whole.length,
      read: (at, length) => {
        read += length;
        return bytesOf(whole).read(at, length);
      },
    };
    expect(readTable({ main: counted }, 'schema_migrations')?.map((r) => r.version)).toEqual([1]);
    expect(whole.length).toBeGreaterThan(1_000_000);
    expect(read).toBeLessThan(whole.length / 50);
  });
});

describe('reading a database on disk that may be written meanwhile', () => {
  it('reads it again when it changed during the read (a checkpoint or a commit of the running release), and gives up on one that never holds still', () => {
    const { db, file } = liveDatabase();
    db.exec(migrationsTable);
    db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 'then')").run();
    const dir = path.dirname(file);
    const versions = (files: Parameters<typeof readTable>[0]): unknown[] => readTable(files, 'schema_migrations')!.map((r) => r.version);
    const attempts: number[] = [];
    const rows = readDatabase(dir, versions, (attempt) => {
      attempts.push(attempt);
      // The release commits while the first read goes on: what it read may mix two moments.
      if (attempt === 1) db.prepare("INSERT INTO schema_migrations VALUES (2, 'printing', 'now')").run();
    });
    expect(attempts).toEqual([1, 2]);
    expect(rows).toEqual([1, 2]);
    let v = 3;
    expect(() =>
      readDatabase(dir, versions, () => {
        db.prepare("INSERT INTO schema_migrations VALUES (?, 'm', 'now')").run(v++);
        db.pragma('wal_checkpoint(PASSIVE)');
      }),
    ).toThrow(/kept changing while it was read/);
    db.close();
    expect(readDatabase(folder(), versions)).toBeNull();
  });
});
