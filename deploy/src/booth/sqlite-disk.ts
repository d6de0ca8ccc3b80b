import { closeSync, existsSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { SqliteReadError, type ByteSource, type SqliteFiles } from '../database/sqlite-file.js';
import { DB_NAME } from './paths.js';

/**
 * A database's files on disk, read by the SQLite reader a page at a time (never whole: a huge or
 * hostile file costs no memory), and read again when they changed while they were read. The
 * database may be written meanwhile (the release that runs, before a rollback): a checkpoint
 * between the main file and its WAL would make pages of two moments read as one. Each read is
 * bracketed by the files' identity (inode, size, change time, and the WAL's header with its
 * salts); when it moved, the read is made again, and a database that never holds still throws
 * SqliteReadError (the caller's safe path).
 */

/** Reads of a database that keeps changing, before giving up. */
const ATTEMPTS = 4;

function fileSource(fd: number, length: number): ByteSource {
  return {
    length,
    read(at: number, want: number): Uint8Array {
      const size = Math.max(0, Math.min(want, length - at));
      const buf = Buffer.alloc(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, buf, got, size - got, at + got);
        if (n === 0) break;
        got += n;
      }
      return buf.subarray(0, got);
    },
  };
}

const identityOf = (st: Stats | undefined): string => (st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : '-');

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** What says the files moved: the paths' and the open files' identity, and the WAL's header. */
function identity(main: string, fds: { main: number; wal: number | undefined }): string {
  const walHeader = fds.wal === undefined ? '' : Buffer.from(fileSource(fds.wal, 32).read(0, 32)).toString('hex');
  return [
    identityOf(statOrUndefined(main)),
    identityOf(statOrUndefined(`${main}-wal`)),
    identityOf(fstatSync(fds.main)),
    fds.wal === undefined ? '-' : identityOf(fstatSync(fds.wal)),
    walHeader,
  ].join('|');
}

/** The database files' identity in DIR as their paths show it (for a copy made while they may change). */
export function databaseIdentity(dir: string): string {
  const main = path.join(dir, DB_NAME);
  let header = '';
  try {
    const fd = openSync(`${main}-wal`, 'r');
    try {
      header = Buffer.from(fileSource(fd, 32).read(0, 32)).toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    /* no WAL */
  }
  return [identityOf(statOrUndefined(main)), identityOf(statOrUndefined(`${main}-wal`)), header].join('|');
}

/**
 * Runs READ over the database in DIR (its main file and WAL), until a read saw files that did not
 * change under it; null when DIR holds no database. `duringRead` runs once each read is done,
 * before the files are looked at again (tests: a write while the database is read).
 */
export function readDatabase<T>(dir: string, read: (files: SqliteFiles) => T, duringRead?: (attempt: number) => void): T | null {
  const main = path.join(dir, DB_NAME);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (!existsSync(main)) return null;
    const fds: { main: number; wal: number | undefined } = { main: openSync(main, 'r'), wal: undefined };
    try {
      try {
        fds.wal = openSync(`${main}-wal`, 'r');
      } catch {
        /* no WAL: everything is in the main file */
      }
      const before = identity(main, fds);
      const files: SqliteFiles = {
        main: fileSource(fds.main, fstatSync(fds.main).size),
        wal: fds.wal === undefined ? undefined : fileSource(fds.wal, fstatSync(fds.wal).size),
      };
      const result = read(files);
      duringRead?.(attempt);
      if (identity(main, fds) === before) return result;
    } finally {
      closeSync(fds.main);
      if (fds.wal !== undefined) closeSync(fds.wal);
    }
  }
  throw new SqliteReadError(`the database in ${dir} kept changing while it was read`);
}
