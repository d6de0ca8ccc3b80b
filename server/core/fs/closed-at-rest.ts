import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { chmod, lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** What the service creates is its user's alone: folders 0700, files 0600. */
export const SERVICE_UMASK = 0o077;
const OPEN_TO_OTHERS = 0o077;

/**
 * Sets the process's umask, so that every file and folder the service (and each program it starts)
 * creates from now on is closed to other users. A worker thread cannot: its process's is used.
 */
export function closeUmask(): void {
  if (isMainThread) process.umask(SERVICE_UMASK);
}

/** Still open to other users after a chmod: a file system that keeps no modes (FAT), or someone else's file. */
function staysOpen(target: string): boolean {
  try {
    return (lstatSync(target).mode & OPEN_TO_OTHERS) !== 0;
  } catch {
    return false;
  }
}

/**
 * Closes one path to other users if it is open to them; a symlink is left alone (never followed).
 * Says what it found: nothing to do (undefined), closed, or open still.
 */
function closeSync(target: string): 'closed' | 'open' | undefined {
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink() || (st.mode & OPEN_TO_OTHERS) === 0) return undefined;
  try {
    chmodSync(target, st.isDirectory() ? 0o700 : 0o600);
  } catch {
    // Reported below, as open still.
  }
  return staysOpen(target) ? 'open' : 'closed';
}

/** The data folder is another user's: it cannot be kept closed to them (nor what lies in it safe from them). */
export class DataDirNotOwnedError extends Error {
  constructor(dir: string, owner: number) {
    super(
      `The data folder ${dir} belongs to another user (uid ${owner}): Boothdeck keeps its database and secrets closed to other users only in a folder of its own user's. Give the folder to the booth's user (chown), or set BOOTHDECK_DATA_DIR to another folder.`,
    );
  }
}

export interface DataDirCheck {
  /** The folder, its links resolved: what the tree's repair walks. */
  dir: string;
  /** The folder itself was open to other users (a booth set up before this rule, or a person's chmod): its whole tree is to be repaired (`closeTree`). */
  wasOpen: boolean;
  /** The folder, or entries directly in it, open to other users still (named in the log). */
  stillOpen: string[];
}

/**
 * At start, before anything is opened in it: the data folder exists, is the service user's own
 * (else DataDirNotOwnedError: another user could read or swap what lies in it) and is 0700, and so
 * is each file and folder directly in it (the database and its WAL, where the PIN hashes lie; the
 * secrets folder). A few entries: checked at every start. A data folder given as a link is closed
 * where it leads.
 */
export function closeDataDir(given: string): DataDirCheck {
  mkdirSync(given, { recursive: true, mode: 0o700 });
  const dir = realpathSync(given);
  const uid = process.getuid?.();
  const owner = statSync(dir).uid;
  if (uid !== undefined && owner !== uid) throw new DataDirNotOwnedError(given, owner);
  const root = closeSync(dir);
  const stillOpen = root === 'open' ? [dir] : [];
  for (const name of readdirSync(dir)) if (closeSync(path.join(dir, name)) === 'open') stillOpen.push(path.join(dir, name));
  return { dir, wasOpen: root !== undefined, stillOpen };
}

export interface TreeRepair {
  /** Folders and files that were open to other users and are now closed. */
  closed: number;
  /** Those that could not be changed (another user's): named in the log. */
  refused: string[];
}

/**
 * Walks a tree (never through a symlink) and closes every folder (0700) and file (0600) open to
 * other users. Asynchronous, a folder at a time: the service serves meanwhile.
 */
export async function closeTree(dir: string): Promise<TreeRepair> {
  const report: TreeRepair = { closed: 0, refused: [] };
  const visit = async (current: string): Promise<void> => {
    let entries;
    try {
      entries = await opendir(current);
    } catch {
      return;
    }
    for await (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isSymbolicLink()) continue;
      const st = await lstat(full).catch(() => undefined);
      if (!st) continue;
      if ((st.mode & OPEN_TO_OTHERS) !== 0) {
        try {
          await chmod(full, st.isDirectory() ? 0o700 : 0o600);
        } catch {
          // Told apart below: the mode it has now is what counts.
        }
        if (staysOpen(full)) report.refused.push(full);
        else report.closed++;
      }
      if (st.isDirectory()) await visit(full);
    }
  };
  await visit(dir);
  return report;
}
