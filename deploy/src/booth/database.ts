import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AppliedMigration } from '../../../common/schema-compat.js';
import { readTable } from '../database/sqlite-file.js';
import { appliedMigrations, databasePlan, printCarryOver, type DatabasePlan } from '../rules/database-plan.js';
import { baseName } from '../rules/names.js';
import { CLOSED_DIR, CLOSED_FILE, closeTree } from './closed-copies.js';
import { dataDir, type Ctx } from './context.js';
import { fsyncPath, writeAtomic } from './files.js';
import { DB_FILES, DB_NAME } from './paths.js';
import { databaseIdentity, readDatabase } from './sqlite-disk.js';

/**
 * The database goes with the release (rules/database-plan.ts decides when). A snapshot is taken
 * while the release leaving is stopped: nothing writes then, so the files are the database exactly
 * as it left it. Putting a snapshot back is three journalled steps, each safe to do again: the
 * copy made ready beside the live files, the live files moved aside, the copy moved in.
 */

const snapshotDir = (ctx: Ctx, release: string): string => path.join(ctx.paths.snapshots, baseName(release));
/** Kept in the data folder: a rename there never crosses file systems. */
const replacedDir = (ctx: Ctx, tag: string): string => path.join(dataDir(ctx.paths), 'replaced-databases', tag);
const restoreDir = (ctx: Ctx, tag: string): string => path.join(dataDir(ctx.paths), `restore-${tag}.tmp`);

/** The migrations of the database in DIR: null when there is none, undefined when it cannot be read. */
export function migrationsIn(dir: string): AppliedMigration[] | null | undefined {
  try {
    return readDatabase(dir, (files) => appliedMigrations(readTable(files, 'schema_migrations')));
  } catch {
    return undefined;
  }
}

/** Which database TARGET gets: the live one, or its snapshot put back. */
export function planFor(ctx: Ctx, target: string): DatabasePlan {
  const snapshot = snapshotDir(ctx, target);
  return databasePlan(baseName(target), migrationsIn(dataDir(ctx.paths)), existsSync(snapshot) ? migrationsIn(snapshot) : null);
}

/** Where the trial start's copy comes from: the live database, or the snapshot that goes back. */
export const trialDatabaseSource = (ctx: Ctx, target: string, plan: DatabasePlan['plan']): string =>
  plan === 'snapshot' ? snapshotDir(ctx, target) : dataDir(ctx.paths);

/**
 * Copies the database and its WAL from FROM into TO, synced (the WAL's index is rebuilt by
 * SQLite). A database written meanwhile (the trial's copy of the one the running release uses) is
 * copied again until a copy saw it hold still; false when it never did (the copy is the last one).
 * The copy is the booth user's alone (closed-copies.ts): 0600 files in a 0700 folder.
 */
export function copyDatabase(from: string, to: string): boolean {
  for (let attempt = 1; ; attempt++) {
    const before = databaseIdentity(from);
    mkdirSync(to, { recursive: true, mode: CLOSED_DIR });
    chmodSync(to, CLOSED_DIR);
    for (const f of DB_FILES) rmSync(path.join(to, f), { force: true });
    for (const f of [DB_NAME, `${DB_NAME}-wal`]) {
      if (!existsSync(path.join(from, f))) continue;
      copyFileSync(path.join(from, f), path.join(to, f));
      // copyFileSync gives the copy the mode of the database it copies; the folder, closed from
      // its creation, keeps it out of other users' reach until then.
      chmodSync(path.join(to, f), CLOSED_FILE);
      fsyncPath(path.join(to, f));
    }
    fsyncPath(to);
    if (databaseIdentity(from) === before) return true;
    if (attempt >= 4) return false;
  }
}

/**
 * Every copy of the database kept on the booth, closed to other users (chmod -R go-rwx): the
 * snapshots, older ones included (earlier versions left them 0644, and those taken before the
 * secrets were sealed hold the publishing password in clear), and the replaced databases. Done at
 * each switch; a copy that cannot be closed is said, and the switch goes on.
 */
export function closeCopies(ctx: Ctx): void {
  const open = [ctx.paths.snapshots, path.join(dataDir(ctx.paths), 'replaced-databases')].flatMap((dir) => closeTree(dir));
  if (open.length > 0)
    ctx.log.note(
      `WARNING: ${open.length} cop${open.length === 1 ? 'y' : 'ies'} of the database could not be closed to other users: ${open.slice(0, 3).join(', ')}`,
    );
}

/** The live database as RELEASE left it, kept in snapshots/RELEASE/ (taken with Boothdeck stopped). */
export function snapshotDatabase(ctx: Ctx, release: string): void {
  const live = dataDir(ctx.paths);
  if (!existsSync(path.join(live, DB_NAME))) return;
  const dir = snapshotDir(ctx, release);
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  copyOrNothing(live, tmp);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  fsyncPath(ctx.paths.snapshots);
  ctx.log.note(`Database snapshot of ${baseName(release)} kept in snapshots/ (taken with Boothdeck stopped)`);
}

/** Step 1 of putting TARGET's snapshot back: its copy made ready in the data folder (the slow part). */
export function prepareRestore(ctx: Ctx, target: string, tag: string): void {
  const tmp = restoreDir(ctx, tag);
  rmSync(tmp, { recursive: true, force: true });
  copyOrNothing(snapshotDir(ctx, target), tmp);
}

/** A copy that fails (a full disk) leaves no half copy taking the room that is missing. */
function copyOrNothing(from: string, to: string): void {
  try {
    copyDatabase(from, to);
  } catch (err) {
    rmSync(to, { recursive: true, force: true });
    throw err;
  }
}

/** Step 2: the live files moved aside (kept in replaced-databases/TAG/ for a look). Done again, it moves what is left. */
export function moveLiveAside(ctx: Ctx, tag: string): void {
  const live = dataDir(ctx.paths);
  const aside = replacedDir(ctx, tag);
  mkdirSync(aside, { recursive: true, mode: CLOSED_DIR });
  for (const f of DB_FILES) if (existsSync(path.join(live, f))) renameSync(path.join(live, f), path.join(aside, f));
  fsyncPath(live);
  fsyncPath(aside);
  closeCopies(ctx);
}

/** Step 3: the copy moved in; then what the replaced database held that the restored one lacks is carried over. */
export function swapIn(ctx: Ctx, target: string, tag: string): void {
  const live = dataDir(ctx.paths);
  const tmp = restoreDir(ctx, tag);
  if (existsSync(tmp)) {
    for (const f of DB_FILES) if (existsSync(path.join(tmp, f))) renameSync(path.join(tmp, f), path.join(live, f));
    fsyncPath(live);
    rmSync(tmp, { recursive: true, force: true });
  }
  ctx.log.note(
    `Database: put back the snapshot of ${baseName(target)}; the replaced one is kept in ${path.join(live, 'replaced-databases', tag)}`,
  );
  carryOver(ctx, tag);
  pruneReplaced(ctx);
}

/**
 * The print jobs waiting in the replaced database that the restored one does not have go to
 * carry-over/, which the restored release queues again at its start. Photos taken meanwhile are
 * still in the capture app's folder: the start's rescan indexes them again.
 */
function carryOver(ctx: Ctx, tag: string): void {
  const live = dataDir(ctx.paths);
  try {
    const replaced = readDatabase(replacedDir(ctx, tag), (files) => ({
      jobs: readTable(files, 'print_jobs') ?? [],
      sessions: readTable(files, 'guest_sessions') ?? [],
    }));
    const restored = readDatabase(live, (files) => readTable(files, 'print_jobs') ?? []);
    if (!replaced || !restored) return;
    const carried = printCarryOver(replaced, restored, ctx.log.runId ?? tag, new Date());
    const settled = carried.settled ?? [];
    if (carried.jobs.length === 0 && settled.length === 0) return;
    const dir = path.join(live, 'carry-over');
    mkdirSync(dir, { recursive: true });
    writeAtomic(path.join(dir, `print-jobs-${tag}.json`), `${JSON.stringify(carried)}\n`);
    if (carried.jobs.length > 0)
      ctx.log.note(
        `Print jobs queued since the snapshot, carried into the restored database (the release queues them again at its start):`,
      );
    for (const j of carried.jobs) ctx.log.note(`  photo ${j.photo_id}, ${j.copies} copies (${j.state})`);
    if (settled.length > 0)
      ctx.log.note(
        'Print jobs the snapshot still has waiting that moved on since, never printed twice (the release settles them at its start):',
      );
    for (const j of settled) ctx.log.note(`  photo ${j.photo_id}, ${j.copies} copies (${j.state} since the snapshot)`);
  } catch (err) {
    ctx.log.note(
      `WARNING: the print jobs of the replaced database could not be read (${(err as Error).message}): look in ${replacedDir(ctx, tag)}`,
    );
  }
}

/** Keeps the three newest replaced databases. */
function pruneReplaced(ctx: Ctx): void {
  const dir = path.join(dataDir(ctx.paths), 'replaced-databases');
  try {
    const all = readdirSync(dir)
      .map((name) => ({ name, mtime: statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of all.slice(3)) rmSync(path.join(dir, old.name), { recursive: true, force: true });
  } catch {
    /* nothing kept yet */
  }
}
