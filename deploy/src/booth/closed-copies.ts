import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Copies of the database the deploy keeps (snapshots, the replaced databases, the trial's copy)
 * are the booth user's alone: they hold the PIN hashes, and those taken before the secrets were
 * sealed hold the publishing password in clear. The deploy's own umask (022) is for the releases
 * it installs, not for these.
 */
export const CLOSED_DIR = 0o700;
export const CLOSED_FILE = 0o600;

/** Folders below a kept copy (snapshots/<release>/<files>): deeper than this is no copy of ours. */
const MAX_DEPTH = 6;

/**
 * Takes every right of other users away (chmod -R go-rwx) from TARGET and what it holds: links are
 * never followed (closing one would close what it points to). Never throws: answers the paths it
 * could not close, so that the switch goes on and says so.
 */
export function closeTree(target: string, depth = 0): string[] {
  let stat: Stats;
  try {
    stat = lstatSync(target);
  } catch {
    return [];
  }
  if (stat.isSymbolicLink()) return [];
  const failed: string[] = [];
  if ((stat.mode & 0o077) !== 0) {
    try {
      chmodSync(target, stat.mode & 0o7777 & ~0o077);
    } catch {
      failed.push(target);
    }
  }
  if (!stat.isDirectory() || depth >= MAX_DEPTH) return failed;
  let names: string[];
  try {
    names = readdirSync(target);
  } catch {
    return [...failed, target];
  }
  for (const name of names) failed.push(...closeTree(path.join(target, name), depth + 1));
  return failed;
}
