import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
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

/** Closes one path to other users if it is open to them; a symlink is left alone (never followed). */
function closeSync(target: string, dirMode: number, fileMode: number): boolean {
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return false;
  }
  if (st.isSymbolicLink() || (st.mode & OPEN_TO_OTHERS) === 0) return false;
  try {
    chmodSync(target, st.isDirectory() ? dirMode : fileMode);
  } catch {
    // Another user's file: the tree's repair names it in the log.
  }
  return true;
}

/**
 * At start, before anything is opened in it: the data folder exists and is 0700, and so is each
 * file and folder directly in it (the database and its WAL, where the PIN hashes lie; the secrets
 * folder). A few entries: checked at every start. Returns whether the folder itself was open to
 * other users (a booth set up before this rule, or a person's chmod): then its whole tree is to be
 * repaired (`closeTree`).
 */
export function closeDataDir(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const wasOpen = closeSync(dir, 0o700, 0o600);
  for (const name of readdirSync(dir)) closeSync(path.join(dir, name), 0o700, 0o600);
  return wasOpen;
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
          report.closed++;
        } catch {
          report.refused.push(full);
        }
      }
      if (st.isDirectory()) await visit(full);
    }
  };
  await visit(dir);
  return report;
}
