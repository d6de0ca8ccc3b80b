import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { FakeBooth } from './fake-booth.js';

/** The release every seeded booth runs, and the one the cases deploy. */
export const OLD = '0.1.0-gaaaaaaa';
export const NEW = '0.1.0-gbbbbbbb';
export const A = `releases/Boothdeck-${OLD}-arm64.AppImage`;
export const B = `releases/Boothdeck-${NEW}-arm64.AppImage`;
export const DB = '.config/Boothdeck/data/boothdeck.sqlite';

/** A live database at migration 9 with `schema`'s tables, on a booth named salle-a. */
export function seedDatabase(booth: FakeBooth, schema: string, wal = false): void {
  mkdirSync(booth.home('.config/Boothdeck/data'), { recursive: true });
  const db = new Database(booth.home(DB));
  if (wal) db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL,
    backward_compatible INTEGER NOT NULL DEFAULT 0);
    ${schema}`);
  for (let v = 1; v <= 9; v++) db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?, 0)').run(v, `m${v}`, 'then');
  db.close();
  writeFileSync(booth.home('.config/boothdeck/fleet.env'), 'BOOTHDECK_BOOTH_NAME=salle-a\n');
}

/** The migrations of a booth's live database, as "version:compatible", in order. */
export function liveMigrations(booth: FakeBooth): string[] {
  const db = new Database(booth.home(DB), { readonly: true });
  try {
    const rows = db.prepare('SELECT version, backward_compatible AS c FROM schema_migrations ORDER BY version').all() as {
      version: number;
      c: number;
    }[];
    return rows.map((r) => `${r.version}:${r.c}`);
  } finally {
    db.close();
  }
}

/**
 * A booth after its first deploy of OLD (`seed` first prepares it), made once for the file; each
 * case gets its own copy, removed when the case ends.
 */
export function seededBooths(seed: (booth: FakeBooth) => void = () => undefined) {
  let seeded: FakeBooth | undefined;
  beforeAll(async () => {
    seeded = await FakeBooth.create();
    seed(seeded);
    const first = await seeded.deploy([seeded.build(OLD)]);
    if (first.code !== 0) throw new Error(first.out);
  }, 120_000);
  afterAll(() => seeded?.dispose());
  const original = (): FakeBooth => {
    if (!seeded) throw new Error('the seeded booth is not made yet');
    return seeded;
  };
  return {
    original,
    boothFor: async ({ onTestFinished }: TestContext): Promise<FakeBooth> => {
      const booth = await original().clone();
      onTestFinished(() => booth.dispose());
      return booth;
    },
  };
}
