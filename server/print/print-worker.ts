import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { copyBounded, TooLargeError } from '../media/bounded-read.js';
import { contentTypeOf } from '../photos/media-kind.js';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { PaperSize, PrinterStatus } from '../contract/print.contract.js';
import type { PrintSettings } from '../contract/settings.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { UNKNOWN_OUTCOME, type PrintJobRow, type PrintRepository } from './print.repository.js';
import { PrinterUnreachableError, type PrinterPort, type SubmitOptions } from './printer.port.js';
import { defaultWatchOptions, PrinterWatch } from './printer-watch.js';

export interface PrintWorkerOptions {
  /** How often a job in CUPS is asked about. */
  pollMs: number;
  /** How often a paused queue looks at the printer again. */
  pausePollMs: number;
  /** Largest image fetched for printing. */
  maxFileBytes: number;
  /** How often the printer is watched while nothing prints (a pause shows within this). */
  watchMs: number;
  /** Whether anyone reads the printer's state; the watch rests (asks nothing) while not. */
  watchAttentive?: () => boolean;
}

export const defaultWorkerOptions: PrintWorkerOptions = { pollMs: 1000, pausePollMs: 3000, maxFileBytes: 64 * 1024 * 1024, watchMs: 2000 };

/** The settings a job is sent with, and the error policy its queue gets. */
export type JobSettings = Pick<PrintSettings, 'printer' | 'paper' | 'layout' | 'error_policy'>;

/** The settings whose change makes the printer be read again (jobSettings() may hold more). */
const watchedOf = (s: JobSettings): JobSettings => ({ printer: s.printer, paper: s.paper, layout: s.layout, error_policy: s.error_policy });

/** How long saving the settings waits for the printer's fresh reading before answering anyway. */
export const SETTINGS_READ_WAIT_MS = 3000;

export interface PrintWorkerEvents {
  job(row: PrintJobRow): void;
  printer(status: PrinterStatus): void;
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/gif': '.gif' };
/** CUPS job ids are `<printer>-<number>`. */
const printerOfJob = (cupsJobId: string): string => cupsJobId.replace(/-\d+$/, '');

/**
 * The one print worker: sends one job at a time to CUPS and follows it to its end. A job found
 * in `printing` (after a crash) is settled with CUPS by its job id before anything is resent;
 * a printer that cannot print pauses the queue until CUPS reports it ready.
 */
export class PrintWorker {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private timer: TimerHandle | undefined;
  private wake: (() => void) | undefined;
  readonly watch: PrinterWatch;
  private applied: JobSettings;

  constructor(
    private readonly repo: PrintRepository,
    private readonly printer: PrinterPort,
    private readonly capture: CaptureAppPort,
    /** The photo's processed file, where Boothdeck can read the capture app's folder. */
    private readonly localFile: (photoId: string) => string | undefined,
    private readonly jobSettings: () => JobSettings,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly spoolDir: string,
    private readonly events: PrintWorkerEvents,
    private readonly options: PrintWorkerOptions = defaultWorkerOptions,
  ) {
    this.applied = watchedOf(jobSettings());
    this.watch = new PrinterWatch(printer, jobSettings, clock, log, (status) => events.printer(status), {
      ...defaultWatchOptions,
      everyMs: options.watchMs,
      attentive: options.watchAttentive,
    });
  }

  start(): void {
    this.stopped = false;
    this.watch.start();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watch.stop();
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.wake?.();
    await this.running;
  }

  /** Asks the worker to look at the queue (a job was added, retried, or the settings changed). */
  kick(): void {
    if (this.stopped) return;
    this.watch.attend();
    if (this.running) {
      this.again = true;
      this.wake?.();
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
  }

  /**
   * The print settings were saved: when the printer, paper, layout or error policy changed, the
   * printer is read again at once (its policy set), instead of at the next poll; prints sent
   * meanwhile wait for this reading (PrintService). Resolves with it, or the last one after `waitMs`.
   */
  async settingsChanged(waitMs = SETTINGS_READ_WAIT_MS): Promise<PrinterStatus> {
    const before = this.applied;
    this.applied = watchedOf(this.jobSettings());
    if (JSON.stringify(before) === JSON.stringify(this.applied)) return this.printerStatus();
    this.watch.invalidate();
    const status = await this.watch.freshWithin(waitMs);
    this.kick();
    return status;
  }

  /** The printer as last seen. */
  printerStatus(): PrinterStatus {
    return this.watch.status();
  }

  /**
   * Asks CUPS now and tells listeners when anything changed. A question already under way is
   * waited for, then asked again: it may predate what the caller just did (a job sent, a queue resumed).
   */
  refreshPrinter(): Promise<PrinterStatus> {
    return this.watch.reread();
  }

  /** Resolves once the worker has nothing running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.drain();
      } while (this.again && !this.stopped);
    } catch (err) {
      this.log.error('The print worker stopped on an unexpected error; it starts again in a moment', err);
      this.schedule(this.options.pausePollMs);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, ms);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.clock.setTimeout(() => done(), ms);
      const done = (): void => {
        this.clock.clearTimeout(handle);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const job = this.repo.next();
      if (!job) {
        // The printer may have changed while the last job printed: end on its current state.
        await this.refreshPrinter();
        return;
      }
      if (job.state === 'printing') {
        // Already handed over (or about to be): never resent before CUPS has been asked.
        await this.settle(job);
        continue;
      }
      const status = await this.refreshPrinter();
      if (status.pause) {
        this.schedule(this.options.pausePollMs);
        return;
      }
      await this.send(job);
    }
  }

  private async settle(job: PrintJobRow): Promise<void> {
    if (job.cups_job_id === null) {
      // The worker stopped before lp answered: CUPS never took it.
      this.repo.requeue(job.id, this.clock.now());
      this.emit(job.id);
      return;
    }
    await this.follow(job.id, job.cups_job_id);
  }

  private async send(job: PrintJobRow): Promise<void> {
    if (!this.repo.markPrinting(job.id, this.clock.now())) return;
    this.emit(job.id);
    let file: string;
    try {
      file = await this.spool(job);
    } catch (err) {
      this.fail(job.id, err instanceof MissingPhotoError ? 'photo_missing' : 'capture_unavailable', String(err));
      return;
    }
    const printer = this.printerStatus().name ?? '';
    const settings = this.jobSettings();
    try {
      const options: SubmitOptions = {
        copies: job.copies,
        title: `Boothdeck ${job.id} ${job.photo_id}`,
        paper: settings.paper,
        layout: settings.layout,
        orientation: pageOrientation(await shapeOf(file), this.watch.paper(settings.paper)),
      };
      const cupsJobId = await this.printer.submit(printer, file, options);
      this.repo.setCupsJob(job.id, cupsJobId, this.clock.now());
      this.emit(job.id);
    } catch (err) {
      if (err instanceof PrinterUnreachableError) {
        this.repo.requeue(job.id, this.clock.now());
        this.emit(job.id);
        await this.refreshPrinter();
        return;
      }
      this.fail(job.id, 'printer_refused', err instanceof Error ? err.message : String(err));
      return;
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Follows a job in CUPS to its end; the printer's state is read as it waits. */
  private async follow(id: number, cupsJobId: string): Promise<void> {
    const printer = printerOfJob(cupsJobId);
    while (!this.stopped) {
      if (this.repo.find(id)?.state !== 'printing') return;
      let status;
      try {
        status = await this.printer.jobStatus(printer, cupsJobId);
      } catch (err) {
        if (!(err instanceof PrinterUnreachableError)) throw err;
        await this.refreshPrinter();
        await this.sleep(this.options.pausePollMs);
        continue;
      }
      switch (status.state) {
        case 'completed':
          if (this.repo.markDone(id, this.clock.now())) this.emit(id);
          return;
        case 'gone':
        case 'cancelled':
          // Purged or cancelled in CUPS behind Boothdeck's back (`cancel -x`): printed or not, CUPS
          // cannot say. Never counted, never given back, without a person.
          this.unknown(id, status.state === 'gone' ? `CUPS no longer knows job ${cupsJobId}` : `Job ${cupsJobId} was cancelled in CUPS`);
          return;
        case 'failed':
          // A job CUPS stopped on an error would print later by surprise: take it out.
          await this.printer.cancel(cupsJobId).catch(() => undefined);
          this.fail(id, 'printer_failed', status.detail);
          return;
        default:
          await this.refreshPrinter();
          await this.sleep(this.printerStatus().pause ? this.options.pausePollMs : this.options.pollMs);
      }
    }
  }

  private unknown(id: number, detail: string): void {
    this.log.warn(`Print job ${id}: ${detail}; its outcome is unknown`);
    this.repo.markFailed(id, UNKNOWN_OUTCOME, detail, this.clock.now());
    this.emit(id);
  }

  private fail(id: number, code: string, detail: string): void {
    this.log.warn(`Print job ${id} failed (${code}): ${detail}`);
    this.repo.markFailed(id, code, detail, this.clock.now());
    this.emit(id);
  }

  private emit(id: number): void {
    const row = this.repo.find(id);
    if (row) this.events.job(row);
  }

  /**
   * The photo as the camera and the capture app's processing made it, copied into a spool file:
   * its processed file where Boothdeck can read the capture app's folder, else the capture app's
   * `/media/full` (scaled to its full_still_length, 1500 px by default: a poorer print).
   */
  private async spool(job: PrintJobRow): Promise<string> {
    await mkdir(this.spoolDir, { recursive: true });
    const local = this.localFile(job.photo_id);
    let source: { stream: Readable; contentType: string; contentLength: number | undefined };
    if (local) {
      const size = (await stat(local)).size;
      source = { stream: createReadStream(local), contentType: contentTypeOf(local), contentLength: size };
    } else {
      // The capture client's stream flows from the start: nothing may be awaited between opening and copying it.
      const media = await this.capture.openMedia('full', job.photo_id);
      if (!media) throw new MissingPhotoError(`The capture app has no image for ${job.photo_id}`);
      source = media;
    }
    const type = source.contentType.split(';')[0]?.trim() ?? '';
    const file = path.join(this.spoolDir, `job-${job.id}${EXTENSIONS[type] ?? '.jpg'}`);
    try {
      await copyBounded(source.stream, file, this.options.maxFileBytes, source.contentLength);
    } catch (err) {
      if (err instanceof TooLargeError) throw new MissingPhotoError('The image is too large to print');
      throw err;
    }
    return file;
  }
}

class MissingPhotoError extends Error {}

/**
 * What CUPS is asked so that the photo's shape follows the paper's: a quarter turn when they
 * differ. Paper of unknown size is taken as portrait, as PPDs declare their sizes.
 */
export function pageOrientation(photo: 'portrait' | 'landscape' | null, paper: PaperSize | null): SubmitOptions['orientation'] {
  if (photo === null) return null;
  const paperLandscape = paper?.width_mm != null && paper.height_mm != null && paper.width_mm > paper.height_mm;
  return (photo === 'landscape') !== paperLandscape ? 'landscape' : 'portrait';
}

/** The photo's shape as it will be seen (EXIF orientations 5 to 8 turn it a quarter); null if unreadable. */
async function shapeOf(file: string): Promise<'portrait' | 'landscape' | null> {
  try {
    const meta = await sharp(file).metadata();
    if (!meta.width || !meta.height) return null;
    const turned = (meta.orientation ?? 1) >= 5;
    const [w, h] = turned ? [meta.height, meta.width] : [meta.width, meta.height];
    return w > h ? 'landscape' : 'portrait';
  } catch {
    return null;
  }
}
