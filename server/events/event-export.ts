import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Clock } from '../core/clock/clock.port.js';
import type { ExportProgress } from '../contract/events.contract.js';
import type { PhotoRepository } from '../photos/photo.repository.js';
import type { EventService } from './event.service.js';
import { fileNamePart, photoFileName } from './file-names.js';
import { StoredZipWriter, ZipAbortedError } from './zip-writer.js';
import { captureMediaPath } from '../capture/capture-media.js';

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
   * Writes the ZIP to `out`. Resolves when it is complete, or when `out` closes early (the
   * client went away): then the file being read is closed and nothing else is opened.
   */
  async write(plan: ExportPlan, out: Writable, token?: string): Promise<ExportProgress> {
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
    const zip = new StoredZipWriter(out);
    const missing: string[] = [];
    try {
      for (const entry of plan.entries) {
        let handle: fsp.FileHandle;
        try {
          handle = await fsp.open(entry.file, 'r');
        } catch {
          missing.push(entry.name);
          state.missing = missing.length;
          continue;
        }
        try {
          await zip.addFile(entry.name, new Date(entry.mtime), handle);
        } finally {
          await handle.close();
        }
        state.files_done++;
        state.bytes_done += entry.size;
        track();
      }
      if (missing.length > 0) {
        await zip.addBuffer(
          '_fichiers-manquants.txt',
          new Date(this.clock.now()),
          Buffer.from(`Photos dont le fichier a disparu :\n${missing.join('\n')}\n`),
        );
      }
      await zip.finish();
      state.state = 'done';
      this.events.recordExport(plan.eventId, `${state.files_done} photo(s)${missing.length ? `, ${missing.length} manquante(s)` : ''}`);
    } catch (err) {
      state.state = err instanceof ZipAbortedError ? 'aborted' : 'failed';
      if (!(err instanceof ZipAbortedError)) {
        out.destroy();
        throw err;
      }
    } finally {
      track();
    }
    return state;
  }
}
