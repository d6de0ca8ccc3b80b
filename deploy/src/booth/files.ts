import { closeSync, constants, fsyncSync, openSync, readlinkSync, readSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Flushes a file or a folder (the folder: so that a rename in it survives a power cut). */
export function fsyncPath(target: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(target, 'r');
    fsyncSync(fd);
  } catch {
    // A folder that cannot be opened for sync (some file systems): the rename still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes a small file whole or not at all: a temporary file beside it, synced, renamed over it, the folder synced. */
export function writeAtomic(file: string, text: string, mode = 0o644): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode });
  fsyncPath(tmp);
  renameSync(tmp, file);
  fsyncPath(path.dirname(file));
}

/**
 * A small text file's first MAX bytes at most (the rest is never read: a file that is huge, or a
 * device that never ends, costs nothing); undefined when it cannot be read.
 */
export function readSmall(file: string, max = 65536): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const buf = Buffer.alloc(max);
    let got = 0;
    while (got < max) {
      const n = readSync(fd, buf, got, max - got, null);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Where a link in ROOT points (`releases/…`); undefined when it does not exist. */
export function linkOf(root: string, name: string): string | undefined {
  try {
    return readlinkSync(path.join(root, name));
  } catch {
    return undefined;
  }
}

/** Points a link at TARGET in one rename: a reader sees the old target or the new one, never none. */
export function pointLink(root: string, name: string, target: string): void {
  const tmp = path.join(root, `.${name}.tmp-${process.pid}`);
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  renameSync(tmp, path.join(root, name));
  fsyncPath(root);
}
