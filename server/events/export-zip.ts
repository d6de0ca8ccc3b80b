import { promises as fsp } from 'node:fs';
import type { Writable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { ChunkPool, PooledFileStream, releaseAfterWrite, releasesOnWrite } from './export-chunks.js';

export interface ExportEntry {
  name: string;
  file: string;
  size: number;
  mtime: number;
}

/** What a ZIP writer reports as it goes, wherever it runs (the service's process or a background one). */
export interface ZipProgressHooks {
  /** A photo's entry is written whole. */
  entry(name: string): void;
  /** A photo's file is gone: it is named in the note instead. */
  missing(name: string): void;
}

export interface ZipOutcome {
  state: 'done' | 'aborted';
  filesDone: number;
  missing: string[];
}

/** Entries handed to archiver ahead of the one it writes: enough to never wait, few open files. */
const FEED_AHEAD = 2;
export const ZIP64_FROM_BYTES = 0xffff_ffff - 64 * 1024 * 1024;
export const MISSING_NOTE = '_fichiers-manquants.txt';
const noop = (): void => undefined;

/** Past 4 GiB or 65,535 entries the classic records overflow; archiver then needs ZIP64 from the start. */
export function needsZip64(entries: readonly ExportEntry[], fromBytes = ZIP64_FROM_BYTES): boolean {
  return entries.reduce((n, e) => n + e.size, 0) >= fromBytes || entries.length >= 65_535;
}

/**
 * Writes the ZIP to `out` with archiver, stored entries (JPEGs do not compress) read in 1 MiB
 * chunks, reused once a socket has sent them (export-chunks.ts). Entries are fed a couple ahead of
 * what archiver has written (on its `entry` events): appending them all at once would open every
 * file. Resolves when the ZIP is complete, or when `out` closes early (the client went away): then
 * archiver is aborted and the open files are closed.
 */
export async function writeZip(
  entries: readonly ExportEntry[],
  out: Writable,
  options: { zip64: boolean; now: number; hooks: ZipProgressHooks },
): Promise<ZipOutcome> {
  const archive = new ZipArchive({ store: true, forceZip64: options.zip64 });
  const reading = new Set<PooledFileStream>();
  const pool = new ChunkPool();
  if (releasesOnWrite(out)) releaseAfterWrite(out, pool);
  const missing: string[] = [];
  let filesDone = 0;
  let next = 0;
  let finalized = false;

  const outcome = new Promise<ZipOutcome['state']>((resolve, reject) => {
    out.once('finish', () => resolve('done'));
    out.once('close', () => resolve(finalized && out.writableFinished ? 'done' : 'aborted'));
    archive.once('error', reject);
    // A destination that cannot be written (a full card, a folder gone) fails the ZIP; unheard, it would end the process.
    out.once('error', reject);
  });

  const feed = async (): Promise<void> => {
    while (next < entries.length) {
      const entry = entries[next++] as ExportEntry;
      const exists = await fsp.stat(entry.file).then(
        (st) => st.isFile(),
        () => false,
      );
      if (!exists) {
        missing.push(entry.name);
        options.hooks.missing(entry.name);
        continue;
      }
      const stream = new PooledFileStream(entry.file, pool);
      reading.add(stream);
      stream.once('close', () => reading.delete(stream));
      archive.append(stream, { name: entry.name, date: new Date(entry.mtime), store: true });
      return;
    }
    if (finalized) return;
    finalized = true;
    if (missing.length > 0) {
      archive.append(Buffer.from(`Photos dont le fichier a disparu :\n${missing.join('\n')}\n`), {
        name: MISSING_NOTE,
        date: new Date(options.now),
        store: true,
      });
    }
    await archive.finalize();
  };

  // One feed at a time: a second one must not finalize while the first still looks at its file.
  let feeding = Promise.resolve();
  const feedNext = (): void => {
    feeding = feeding.then(feed).catch((err: unknown) => {
      archive.emit('error', err);
    });
  };
  archive.on('entry', (entry) => {
    if (entry.name !== MISSING_NOTE) {
      filesDone++;
      options.hooks.entry(entry.name);
    }
    feedNext();
  });
  archive.pipe(out);
  for (let i = 0; i < FEED_AHEAD; i++) feedNext();
  // The last feed waits for archiver to end, which a destination gone or failed never lets it do.
  await Promise.race([feeding, outcome.then(noop, noop)]);

  const stopReading = (): void => {
    for (const stream of reading) stream.destroy();
  };
  try {
    const state = await outcome;
    if (state === 'aborted') {
      archive.abort();
      stopReading();
    }
    return { state, filesDone, missing };
  } catch (err) {
    archive.abort();
    stopReading();
    out.destroy();
    throw err;
  }
}
