import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Clock } from '../core/clock/clock.port.js';
import type { ExportProgress } from '../contract/events.contract.js';
import type { PhotoRepository } from '../photos/photo.repository.js';
import type { EventService } from './event.service.js';
import { fileNamePart, photoFileName } from './file-names.js';
import { ZipArchive } from 'archiver';
import { captureMediaPath } from '../capture/capture-media.js';
import { ChunkPool, PooledFileStream, releaseAfterWrite, releasesOnWrite } from './export-chunks.js';

export interface ExportEntry {
  name: string;
  file: string;
  size: number;
  mtime: number;
}

export interface ExportPlan {
  eventId: number;
  fileName: string;
  entries: ExportEntry[];
  totalBytes: number;
}

const PROGRESS_TTL_MS = 10 * 60_000;
/** Entries handed to archiver ahead of the one it writes: enough to never wait, few open files. */
const FEED_AHEAD = 2;
const ZIP64_FROM_BYTES = 0xffff_ffff - 64 * 1024 * 1024;
const MISSING_NOTE = '_fichiers-manquants.txt';

/**
 * Streams an event's photos as a ZIP read straight from the capture app's data folder. Entries
 * are stored, not deflated (JPEGs do not compress), one open file at a time, so memory and open
 * files stay flat however large the event.
 */
export class EventExportService {
  private readonly progress = new Map<string, { value: ExportProgress; expires: number }>();

  constructor(
    private readonly events: EventService,
    private readonly photos: PhotoRepository,
    private readonly captureDataDir: string,
    private readonly clock: Clock,
  ) {}

  plan(slug: string): ExportPlan {
    const event = this.events.get(slug);
    const entries: ExportEntry[] = [];
    let previousSecond = '';
    let rank = 0;
    for (const photo of this.photos.ofEvent(event.id)) {
      const second = photo.stem.slice(0, 15);
      rank = second === previousSecond ? rank + 1 : 0;
      previousSecond = second;
      const file = captureMediaPath(this.captureDataDir, photo.file);
      if (!file) continue;
      entries.push({
        name: photoFileName(event.name, photo.stem, rank, path.extname(photo.file)),
        file,
        size: photo.size,
        mtime: photo.mtime,
      });
    }
    return { eventId: event.id, fileName: `${fileNamePart(event.name)}.zip`, entries, totalBytes: entries.reduce((n, e) => n + e.size, 0) };
  }

  progressOf(token: string): ExportProgress | undefined {
    const now = this.clock.monotonic();
    for (const [key, p] of this.progress) if (p.expires < now) this.progress.delete(key);
    return this.progress.get(token)?.value;
  }

  /**
   * Writes the ZIP to `out` with archiver, stored entries read in 1 MiB chunks, reused once an
   * HTTP response has sent them (export-chunks.ts). Entries are fed
   * a couple ahead of what archiver has written (on its `entry` events): appending them all at
   * once would open every file. Resolves when the ZIP is complete, or when `out` closes early
   * (the client went away): then archiver is aborted and the open files are closed.
   */
  async write(plan: ExportPlan, out: Writable, token?: string, zip64FromBytes = ZIP64_FROM_BYTES): Promise<ExportProgress> {
    const state: ExportProgress = {
      state: 'running',
      files_done: 0,
      files_total: plan.entries.length,
      bytes_done: 0,
      bytes_total: plan.totalBytes,
      missing: 0,
    };
    const track = (): void => {
      if (token) this.progress.set(token, { value: { ...state }, expires: this.clock.monotonic() + PROGRESS_TTL_MS });
    };
    track();
    const archive = new ZipArchive({
      store: true,
      // Past 4 GiB or 65,535 entries the classic records overflow; archiver then needs ZIP64 from the start.
      forceZip64: plan.totalBytes >= zip64FromBytes || plan.entries.length >= 65_535,
    });
    const sizes = new Map(plan.entries.map((e) => [e.name, e.size]));
    const reading = new Set<PooledFileStream>();
    const pool = new ChunkPool();
    if (releasesOnWrite(out)) releaseAfterWrite(out, pool);
    const missing: string[] = [];
    let next = 0;
    let finalized = false;

    const outcome = new Promise<ExportProgress['state']>((resolve, reject) => {
      out.once('finish', () => resolve('done'));
      out.once('close', () => resolve(finalized && out.writableFinished ? 'done' : 'aborted'));
      archive.once('error', reject);
    });

    const feed = async (): Promise<void> => {
      while (next < plan.entries.length) {
        const entry = plan.entries[next++] as ExportEntry;
        const exists = await fsp.stat(entry.file).then(
          (st) => st.isFile(),
          () => false,
        );
        if (!exists) {
          missing.push(entry.name);
          state.missing = missing.length;
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
          date: new Date(this.clock.now()),
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
        state.files_done++;
        state.bytes_done += sizes.get(entry.name) ?? 0;
        track();
      }
      feedNext();
    });
    archive.pipe(out);
    for (let i = 0; i < FEED_AHEAD; i++) feedNext();
    await feeding;

    try {
      state.state = await outcome;
      if (state.state === 'aborted') {
        archive.abort();
        for (const stream of reading) stream.destroy();
      } else {
        this.events.recordExport(plan.eventId, `${state.files_done} photo(s)${missing.length ? `, ${missing.length} manquante(s)` : ''}`);
      }
    } catch (err) {
      state.state = 'failed';
      for (const stream of reading) stream.destroy();
      out.destroy();
      throw err;
    } finally {
      track();
    }
    return state;
  }
}
