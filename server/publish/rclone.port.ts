import type { PublishFailure } from '../contract/publish.contract.js';

/** A failed rclone run: why, as a reason for the operator, and rclone's own words for the log. */
export class RcloneError extends Error {
  constructor(
    readonly reason: PublishFailure,
    readonly detail: string,
  ) {
    super(`rclone failed (${reason}): ${detail}`);
    this.name = 'RcloneError';
  }
}

/** A probe of the remote gives up after this long: the queue counts down to its next try from it. */
export const PROBE_TIMEOUT_MS = 30_000;

export interface RemoteFile {
  path: string;
  size: number;
}

/** Where a remote's settings are read from: a given rclone configuration file, or rclone's default one. */
export interface RcloneTarget {
  configFile: string | null;
}

/**
 * The storage the galleries are published to, through rclone. Destinations are rclone paths
 * (`boothdeck:dir` with Boothdeck's own file, or `name:dir` of the owner's). Every method throws RcloneError when rclone fails.
 */
export interface RclonePort {
  /**
   * Copies the listed files (relative to `sourceDir`) under `dest`. A name already there with the
   * same size is left alone: names are never reused for other content, so nothing is sent twice.
   */
  copyNew(target: RcloneTarget, sourceDir: string, names: readonly string[], dest: string): Promise<void>;
  /** Copies one file to one name, replacing what is there (the event's page). */
  replace(target: RcloneTarget, file: string, destFile: string): Promise<void>;
  /** Removes the listed names under `dest`; a name already gone is not an error. */
  remove(target: RcloneTarget, dest: string, names: readonly string[]): Promise<void>;
  /** Removes `dest` and everything under it; a folder already gone is not an error. */
  purge(target: RcloneTarget, dest: string): Promise<void>;
  /** Reads a small file back. */
  read(target: RcloneTarget, destFile: string): Promise<string>;
  /** Removes one file. */
  removeFile(target: RcloneTarget, destFile: string): Promise<void>;
  /** Every file under `dest`, relative to it, with its size; a folder not there is an empty list. */
  listFiles(target: RcloneTarget, dest: string): Promise<RemoteFile[]>;
  /**
   * Asks the remote one small question about `dest` (a folder not there is an answer), giving up
   * after PROBE_TIMEOUT_MS: whether the remote is reachable again after a failure.
   */
  probe(target: RcloneTarget, dest: string): Promise<void>;
  /** The names of the remotes the target's file describes. */
  listRemotes(target: RcloneTarget): Promise<string[]>;
}

/** Joins an rclone remote and a relative path: `name:` + `a/b`, `name:dir` + `/a/b`, `/folder` + `/a/b`. */
export function remoteJoin(base: string, ...parts: string[]): string {
  const tail = parts.filter((p) => p !== '').join('/');
  if (tail === '') return base;
  if (base.endsWith(':') || base.endsWith('/')) return `${base}${tail}`;
  return `${base}/${tail}`;
}
