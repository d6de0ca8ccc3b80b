/**
 * Which releases the booth keeps, and what may go to make room. Current and previous are never
 * removed. Only releases that ran healthy under the unit count among the ones kept; a release that
 * failed on this booth goes at once; of the releases never tried (stored, then deferred by an
 * event), only the newest stays.
 */

export interface StoredRelease {
  /** File name in releases/. */
  name: string;
  mtimeMs: number;
  bytes: number;
  state: 'healthy' | 'failed' | 'untried';
}

export interface Removal {
  name: string;
  why: string;
}

export interface KeptLinks {
  current: string | undefined;
  previous: string | undefined;
}

export function pruneReleases(releases: readonly StoredRelease[], links: KeptLinks, keepHealthy: number): Removal[] {
  const newestFirst = [...releases].sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name));
  const removals: Removal[] = [];
  let healthy = 0;
  let untried = 0;
  for (const r of newestFirst) {
    // Current and previous count among the healthy ones kept, and are never removed.
    if (r.state === 'healthy') healthy++;
    if (r.name === links.current || r.name === links.previous) continue;
    if (r.state === 'failed') removals.push({ name: r.name, why: 'it failed' });
    else if (r.state === 'healthy' && healthy > keepHealthy)
      removals.push({ name: r.name, why: `${keepHealthy} healthy releases are kept` });
    else if (r.state === 'untried' && ++untried > 1) removals.push({ name: r.name, why: 'a newer one waits to be tried' });
  }
  return removals;
}

export interface SpaceNeed {
  releaseBytes: number;
  /** Copies of the release on the booth's disk at once: the runner's download and the stored one. */
  copies: number;
  /** The live database and its WAL: copied for its snapshot and for the trial start. */
  databaseBytes: number;
  reserveBytes: number;
}

export const bytesNeeded = (need: SpaceNeed): number => need.copies * need.releaseBytes + 2 * need.databaseBytes + need.reserveBytes;

export interface RoomPlan {
  ok: boolean;
  needed: number;
  /** Free after the removals. */
  free: number;
  /** Releases to remove first, the fewest that make room (all that may go when even they do not). */
  remove: string[];
}

/** Room for a release: what is free, else what to remove first (failed, then untried, then the oldest healthy). */
export function roomFor(need: SpaceNeed, freeBytes: number, releases: readonly StoredRelease[], links: KeptLinks): RoomPlan {
  const needed = bytesNeeded(need);
  const order = { failed: 0, untried: 1, healthy: 2 };
  const removable = releases
    .filter((r) => r.name !== links.current && r.name !== links.previous)
    .sort((a, b) => order[a.state] - order[b.state] || a.mtimeMs - b.mtimeMs);
  let free = freeBytes;
  const remove: string[] = [];
  for (const r of removable) {
    if (free >= needed) break;
    remove.push(r.name);
    free += r.bytes;
  }
  return free >= needed ? { ok: true, needed, free, remove } : { ok: false, needed, free: freeBytes, remove: [] };
}
