import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { baseName, isBuildDate, versionOf } from '../rules/names.js';
import { pruneReleases, type StoredRelease } from '../rules/releases.js';
import type { Ctx } from './context.js';
import { linkOf, readSmall, writeAtomic } from './files.js';
import type { BoothPaths } from './paths.js';

/** The releases on the booth, with what this booth knows of each (ran healthy, failed, never tried). */
export function storedReleases(paths: BoothPaths): StoredRelease[] {
  let names: string[];
  try {
    names = readdirSync(paths.releases).filter((n) => versionOf(n) !== undefined);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const st = statSync(path.join(paths.releases, name));
      const state = existsSync(path.join(paths.healthy, name))
        ? 'healthy'
        : existsSync(path.join(paths.failed, name))
          ? 'failed'
          : 'untried';
      return [{ name, mtimeMs: st.mtimeMs, bytes: st.size, state }];
    } catch {
      return [];
    }
  });
}

export const currentLinks = (paths: BoothPaths): { current: string | undefined; previous: string | undefined } => ({
  current: linkOf(paths.root, 'current'),
  previous: linkOf(paths.root, 'previous'),
});

function mark(dir: string, release: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, baseName(release)), '');
}

/** A release that ran healthy under the unit: kept, and pulled again if it is the newest. */
export function markHealthy(paths: BoothPaths, release: string): void {
  mark(paths.healthy, release);
  for (const dir of [paths.held, paths.failed]) rmSync(path.join(dir, baseName(release)), { force: true });
}

/** A release that failed on this booth: never kept, never pulled again. */
export function markFailed(paths: BoothPaths, release: string): void {
  mark(paths.failed, release);
  rmSync(path.join(paths.healthy, baseName(release)), { force: true });
}

/** Rolled back on purpose: the pull does not put it back, only a newer release. */
export const markHeld = (paths: BoothPaths, release: string): void => mark(paths.held, release);

export const isRefused = (paths: BoothPaths, file: string): boolean =>
  existsSync(path.join(paths.failed, file)) || existsSync(path.join(paths.held, file));

/** Removes one release with what goes with it (its marks, its snapshot). */
export function removeRelease(ctx: Ctx, name: string, why: string): void {
  const { paths } = ctx;
  rmSync(path.join(paths.releases, name), { force: true });
  for (const dir of [paths.healthy, paths.held, paths.dates]) rmSync(path.join(dir, name), { force: true });
  rmSync(path.join(paths.snapshots, name), { recursive: true, force: true });
  ctx.log.note(`Removed release ${name} (${why})`);
}

/** Applies the keeping policy (rules/releases.ts); also keeps the last 20 runs' files and 3 replaced databases. */
export function prune(ctx: Ctx, keepHealthy = 3): void {
  const { paths } = ctx;
  const links = currentLinks(paths);
  const short = { current: links.current && baseName(links.current), previous: links.previous && baseName(links.previous) };
  for (const r of pruneReleases(storedReleases(paths), short, keepHealthy)) removeRelease(ctx, r.name, r.why);
  pruneFolder(paths.runs, 20, (n) => n.replace(/\.(log|out|pid|result)$/, ''));
  pruneFolder(paths.snapshots, 3, (n) => (n.startsWith('replaced-') ? n : undefined));
}

/** Keeps the newest KEEP groups of entries of a folder (grouped by KEY; undefined: never removed). */
function pruneFolder(dir: string, keep: number, key: (name: string) => string | undefined): void {
  let entries: { name: string; group: string; mtime: number }[];
  try {
    entries = readdirSync(dir).flatMap((name) => {
      const group = key(name);
      return group === undefined ? [] : [{ name, group, mtime: statSync(path.join(dir, name)).mtimeMs }];
    });
  } catch {
    return;
  }
  const newest = new Map<string, number>();
  for (const e of entries) newest.set(e.group, Math.max(newest.get(e.group) ?? 0, e.mtime));
  const kept = new Set(
    [...newest.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, keep)
      .map(([g]) => g),
  );
  for (const e of entries) if (!kept.has(e.group)) rmSync(path.join(dir, e.name), { recursive: true, force: true });
}

/** Remembers when a release was built (from the pipeline or the published manifest), for the fleet page. */
export function rememberReleaseDate(paths: BoothPaths, file: string, date: string | undefined): void {
  if (!date || !isBuildDate(date)) return;
  mkdirSync(paths.dates, { recursive: true });
  writeAtomic(path.join(paths.dates, file), `${date}\n`);
}

export const releaseDate = (paths: BoothPaths, release: string | undefined): string =>
  (release && readSmall(path.join(paths.dates, baseName(release)), 100)?.trim()) || '-';
