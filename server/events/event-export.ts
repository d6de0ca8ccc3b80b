import { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Clock } from '../core/clock/clock.port.js';
import { TooManyRequestsError } from '../core/errors.js';
import type { ExportProgress } from '../contract/events.contract.js';
import type { PhotoRepository } from '../photos/photo.repository.js';
import type { EventService } from './event.service.js';
import { fileNamePart, photoFileName } from './file-names.js';
import { captureMediaPath } from '../capture/capture-media.js';
import { probeIdleStart } from '../core/background/own-priority.js';
import { resolveWorkerEntry, type WorkerEntry } from '../core/background/worker-entry.js';
import type { Logger } from '../core/logger.js';
import { ExportProcessUnavailable, zipInBackground } from './export-process.js';
import { EXPORT_STALL_MS, StallWatch } from './export-stall.js';
import { needsZip64, writeZip, ZIP64_FROM_BYTES, type ExportEntry, type ZipOutcome, type ZipProgressHooks } from './export-zip.js';

export type { ExportEntry } from './export-zip.js';

export interface ExportPlan {
  eventId: number;
  fileName: string;
  entries: ExportEntry[];
  totalBytes: number;
}

const PROGRESS_TTL_MS = 10 * 60_000;
/**
 * Progress tokens kept at most: the client chooses them, and a refused export costs nothing, so a
 * script asking thousands of times must not grow the map for ten minutes. The oldest over go first.
 */
export const MAX_PROGRESS_TOKENS = 256;

/**
 * ZIP exports running at once on a booth. Each takes a process of its own (tens of MB) and reads
 * the card at full speed: a script asking for twenty at once must not run a Pi out of memory
 * during the party (issue 43).
 */
export const MAX_EXPORTS = 2;

/** A third export while two run: told in words, never queued behind them. */
export class ExportsBusyError extends TooManyRequestsError {
  constructor() {
    super('Two ZIP exports are already running on this booth: try again when one of them has finished', 30, 'exports_busy');
  }
}

export interface EventExportOptions {
  /**
   * Where the ZIP is made. Built (`npm start`, the kiosk, the bench), in a background process
   * below the capture app (export.worker); from sources (vitest), in-process unless asked, as
   * background-resize.ts decides for thumbnails.
   */
  workers?: 'processes' | 'in-process';
  log?: Logger;
  /** How long a download's reader may take nothing before the export is ended (EXPORT_STALL_MS). */
  stallMs?: number;
}

const built = import.meta.url.endsWith('.js');
const FAILED_STARTS_BEFORE_INLINE = 3;

/**
 * Streams an event's photos as a ZIP read straight from the capture app's data folder. Entries
 * are stored, not deflated (JPEGs do not compress), one open file at a time, so memory and open
 * files stay flat however large the event. The reading and checksums run below the capture app
 * (export.worker), as every background work does.
 */
export class EventExportService {
  private readonly progress = new Map<string, { value: ExportProgress; expires: number }>();
  private worker: WorkerEntry | undefined;
  private failedStarts = 0;
  private running = 0;

  constructor(
    private readonly events: EventService,
    private readonly photos: PhotoRepository,
    private readonly captureDataDir: string,
    private readonly clock: Clock,
    private readonly options: EventExportOptions = {},
  ) {
    const where = options.workers ?? (built ? 'processes' : 'in-process');
    this.worker = where === 'processes' ? resolveWorkerEntry(import.meta.url, 'export.worker') : undefined;
    // Asked at the service's start, so that the first export process already starts at SCHED_IDLE.
    if (this.worker) void probeIdleStart();
  }

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

  /**
   * Takes one of the booth's MAX_EXPORTS places, before anything of the answer is sent; throws
   * ExportsBusyError when both are taken (and says so under `token`, for the console that started
   * the download by a plain link). Call the returned function once the export is over.
   */
  claim(token?: string): () => void {
    if (this.running >= MAX_EXPORTS) {
      if (token) this.keep(token, { state: 'busy', files_done: 0, files_total: 0, bytes_done: 0, bytes_total: 0, missing: 0 });
      throw new ExportsBusyError();
    }
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }

  private keep(token: string, value: ExportProgress): void {
    // Set afresh, so that the map's order is the order of last use.
    this.progress.delete(token);
    this.progress.set(token, { value: { ...value }, expires: this.clock.monotonic() + PROGRESS_TTL_MS });
    // An export under way is never forgotten (there are MAX_EXPORTS at most): its console is watching it.
    for (const [oldest, kept] of this.progress) {
      if (this.progress.size <= MAX_PROGRESS_TOKENS) break;
      if (kept.value.state !== 'running') this.progress.delete(oldest);
    }
  }

  progressOf(token: string): ExportProgress | undefined {
    const now = this.clock.monotonic();
    for (const [key, p] of this.progress) if (p.expires < now) this.progress.delete(key);
    return this.progress.get(token)?.value;
  }

  /**
   * Writes the event's ZIP to `out`: in the export process where one can run (the service then only
   * forwards its bytes), else here. Resolves when the ZIP is complete, or when `out` closes early
   * (the client went away, or its reader stalled: StallWatch), with what was done; progress is
   * kept under `token` meanwhile.
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
      if (token) this.keep(token, state);
    };
    track();
    const socket = out instanceof ServerResponse ? out.socket : null;
    const watch = socket
      ? new StallWatch(
          this.clock,
          { localPort: socket.localPort, remotePort: socket.remotePort, remoteAddress: socket.remoteAddress },
          () => {
            this.options.log?.warn(`ZIP export ended: its reader took nothing for ${Math.round(this.stallMs / 1000)} s`);
            out.destroy();
          },
          this.stallMs,
        )
      : undefined;
    const sizes = new Map(plan.entries.map((e) => [e.name, e.size]));
    const hooks: ZipProgressHooks = {
      entry: (name) => {
        state.files_done++;
        state.bytes_done += sizes.get(name) ?? 0;
        track();
      },
      missing: () => {
        state.missing++;
      },
    };
    try {
      const outcome = await this.zip(plan, out, zip64FromBytes, hooks);
      state.state = outcome.state;
      if (outcome.state === 'done') {
        const lost = outcome.missing.length;
        this.events.recordExport(plan.eventId, `${outcome.filesDone} photo(s)${lost ? `, ${lost} manquante(s)` : ''}`);
      }
    } catch (err) {
      state.state = 'failed';
      throw err;
    } finally {
      watch?.stop();
      track();
    }
    return state;
  }

  private get stallMs(): number {
    return this.options.stallMs ?? EXPORT_STALL_MS;
  }

  private async zip(plan: ExportPlan, out: Writable, zip64FromBytes: number, hooks: ZipProgressHooks): Promise<ZipOutcome> {
    const job = { entries: plan.entries, zip64: needsZip64(plan.entries, zip64FromBytes), now: this.clock.now() };
    if (this.worker) {
      try {
        const outcome = await zipInBackground(this.worker, job, out, hooks);
        this.failedStarts = 0;
        return outcome;
      } catch (err) {
        if (!(err instanceof ExportProcessUnavailable)) throw err;
        // A process that failed to start once (a moment without memory) is tried again next time; three in a row, never again.
        if (++this.failedStarts >= FAILED_STARTS_BEFORE_INLINE) {
          this.options.log?.warn(`The export process cannot start here (${err.message}); ZIPs are made in the service's own process`);
          this.worker = undefined;
        }
      }
    }
    return writeZip(job.entries, out, { zip64: job.zip64, now: job.now, hooks });
  }
}
