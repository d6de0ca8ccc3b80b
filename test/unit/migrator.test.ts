import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { MigrationError, runMigrations, type Migration } from '../../server/db/migrator.js';
import { migrations } from '../../server/db/migrations/index.js';

const m = (version: number, name: string, sql: string): Migration => ({ version, name, up: (db) => db.exec(sql) });
const one = m(1, 'one', 'CREATE TABLE a (x INTEGER)');
const two = m(2, 'two', 'CREATE TABLE b (y INTEGER)');
const three = m(3, 'three', 'CREATE TABLE c (z INTEGER)');

const versions = (db: Database.Database): number[] =>
  (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version);

describe('numbered migrations', () => {
  it('applies the missing ones in order and records each', () => {
    const db = new Database(':memory:');
    expect(runMigrations(db, [one, two])).toEqual([1, 2]);
    expect(runMigrations(db, [one, two, three])).toEqual([3]);
    expect(runMigrations(db, [one, two, three])).toEqual([]);
    expect(versions(db)).toEqual([1, 2, 3]);
  });

  it('refuses a list out of order or with a gap, before touching the database', () => {
    const db = new Database(':memory:');
    expect(() => runMigrations(db, [two, one])).toThrow(MigrationError);
    expect(() => runMigrations(db, [one, three])).toThrow(/out of order/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('a', 'b')").all()).toEqual([]);
  });

  it('refuses a database that has a migration this code does not know', () => {
    const db = new Database(':memory:');
    runMigrations(db, [one, two, three]);
    expect(() => runMigrations(db, [one, two])).toThrow(/does not know/);
  });

  it('records whether each migration is backward compatible (unset means not)', () => {
    const db = new Database(':memory:');
    runMigrations(db, [one, { ...two, backwardCompatible: true }]);
    expect(db.prepare('SELECT version, backward_compatible AS c FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, c: 0 },
      { version: 2, c: 1 },
    ]);
  });

  it('an older release starts on a database whose newer migrations are all backward compatible, and refuses one that is not', () => {
    const compatible = new Database(':memory:');
    runMigrations(compatible, [one, two, { ...three, backwardCompatible: true }]);
    expect(runMigrations(compatible, [one, two])).toEqual([]);
    const breaking = new Database(':memory:');
    runMigrations(breaking, [one, { ...two, backwardCompatible: true }, three]);
    expect(() => runMigrations(breaking, [one])).toThrow(/migration 3 \(three\) that this version of Boothdeck does not know/);
  });

  it('adds the compatibility column to a database made before it, its old rows counted as not compatible', () => {
    const db = new Database(':memory:');
    db.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL); INSERT INTO schema_migrations VALUES (1, 'one', 'then')",
    );
    db.exec('CREATE TABLE a (x INTEGER)');
    expect(runMigrations(db, [one, two])).toEqual([2]);
    expect(db.prepare('SELECT backward_compatible AS c FROM schema_migrations WHERE version = 1').get()).toEqual({ c: 0 });
  });

  it('refuses a database whose migration of that number has another name', () => {
    const db = new Database(':memory:');
    runMigrations(db, [one]);
    expect(() => runMigrations(db, [m(1, 'other', 'SELECT 1'), two])).toThrow(/refusing to start/);
    expect(versions(db)).toEqual([1]);
  });

  it('rolls a failing migration back entirely, record included', () => {
    const db = new Database(':memory:');
    const broken = m(2, 'broken', 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);');
    expect(() => runMigrations(db, [one, broken])).toThrow();
    expect(versions(db)).toEqual([1]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").all()).toEqual([]);
  });

  it('opens the real database with WAL, foreign keys and a busy timeout', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'boothdeck-db-')), 'test.sqlite');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(versions(db)).toEqual(migrations.map((x) => x.version));
    db.close();
  });
});
