import { performance } from 'node:perf_hooks';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type {
  AdminPrintJob,
  GuestPrintJob,
  GuestPrintSession,
  PrintCounters,
  PaperSize,
  PrinterChoice,
  PrinterGlance,
  PrinterStatus,
  PrintQueueSummary,
  PrintQueueView,
  PrintRequestResult,
} from '../contract/print.contract.js';
import type { PrintSettings } from '../contract/settings.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import { CaptureFileMissingError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import type { EventHub } from '../core/event-hub.js';
import type { EventRepository } from '../events/event.repository.js';
import type { PhotoRepository } from '../photos/photo.repository.js';
import type { PhotoService } from '../photos/photo.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { printerForPrint } from './fresh-printer.js';
import { GUEST_COOKIE_MAX_AGE_MS } from './guest-session.js';
import { paperSize } from './paper-sizes.js';
import {
  NoPrinterError,
  PrinterUnavailableError,
  PrintUnavailableError,
  QuotaExceededError,
  SessionRequiredError,
} from './print.errors.js';
import type { CounterName, GuestQuota, PrintJobRow, PrintRepository } from './print.repository.js';
import type { PrintWorker } from './print-worker.js';
import { PrinterUnreachableError, type PrinterPort } from './printer.port.js';
import { UNKNOWN_PRINTER } from './printer-watch.js';
import { isPrintable } from '../photos/media-kind.js';

/** The operator may ask for more than a guest, within what a photo printer can take at once. */
export const ADMIN_MAX_COPIES = 20;
const QUEUE_LIST_LIMIT = 200;
/**
 * How long the capture app's "I have this photo" stays good: a burst of requests for one photo
 * asks it once. A photo it deletes leaves the index through its DbRemove event anyway.
 */
const CONFIRMED_TTL_MS = 5_000;
const CONFIRMED_MAX = 500;
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * What cannot be printed because it cannot be found: not in the index, not in the current event
 * (for guests), its file lost, or unknown to the capture app. One code, one sentence on screen.
 */
const unavailable = (why: string): NotFoundError => new NotFoundError(why, 'photo_unavailable');

/** Guests' and the operator's prints: quota, queue, counters. The worker does the printing. */
export class PrintService {
  private worker: PrintWorker | undefined;
  /** Photo id → monotonic time the capture app last confirmed it. */
  private readonly confirmed = new Map<string, number>();
  /** Questions to the capture app under way, shared by requests for the same photo. */
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly repo: PrintRepository,
    private readonly photos: PhotoRepository,
    private readonly photoService: PhotoService,
    private readonly events: EventRepository,
    private readonly capture: CaptureAppPort,
    private readonly settings: SettingsService,
    private readonly printer: PrinterPort,
    private readonly hub: EventHub,
    private readonly clock: Clock,
    /** False when the photo's processed file is known to be gone from a capture-app folder Boothdeck reads. */
    private readonly fileThere: (photoId: string) => boolean = () => true,
  ) {}

  /** Wired once, after both exist (the worker reports back through this service). */
  attach(worker: PrintWorker): void {
    this.worker = worker;
  }

  private printSettings() {
    return this.settings.stored().print;
  }

  /** Why a job sent now would wait: the watched printer, whether or not anything waits. */
  private pause(): PrinterStatus['pause'] {
    return this.worker?.printerStatus().pause ?? null;
  }

  /** Session rows no job needs, kept no longer than a guest's cookie lives: removed at start. */
  prune(): number {
    return this.repo.pruneSessions(this.clock.now() - GUEST_COOKIE_MAX_AGE_MS);
  }

  private quotaOf(
    s: PrintSettings,
    sessionId: string | undefined,
    address: string,
    eventId: number | null,
  ): Omit<GuestQuota, 'sessionId'> & { sessionId: string | undefined } {
    return { sessionId, address, eventId, quota: s.quota, addressQuota: s.quota * s.sessions_per_address };
  }

  session(sessionId: string | undefined, address: string): GuestPrintSession {
    const s = this.printSettings();
    const used = sessionId === undefined ? 0 : this.repo.sessionUsed(sessionId);
    const left = this.repo.remaining(this.quotaOf(s, sessionId, address, this.events.current()?.id ?? null));
    return {
      print: {
        enabled: s.enable,
        quota: s.quota,
        used,
        remaining: left.remaining,
        limited_by: left.scope,
        max_copies: s.max_copies,
        paused: this.pause(),
        paper: this.paper(s),
        layout: s.layout,
        has_session: sessionId !== undefined,
      },
    };
  }

  private paper(s: PrintSettings): PaperSize | null {
    return this.worker?.watch.paper(s.paper) ?? null;
  }

  /** A photo printable right now: in the index, visible, and known to the capture app. */
  private indexed(photoId: string, currentEventOnly: boolean): { eventId: number | null } {
    const row = this.photos.find(photoId);
    const current = this.events.current();
    if (!row || row.visible !== 1 || (currentEventOnly && (current === undefined || row.event_id !== current.id))) {
      throw unavailable('No such photo');
    }
    // A collage's shot guests are not shown is not theirs to print by its id either.
    if (currentEventOnly && this.photoService.partHiddenFromGuests(row)) throw unavailable('No such photo');
    if (row.missing === 1 || row.processed !== 1 || !this.fileThere(photoId)) throw unavailable('The photo’s file is missing');
    // A printer takes stills: videos and animations (WebP, AVIF or GIF alike: the item's media
    // type set its kind) are only shared and downloaded.
    if (!isPrintable(row.kind)) throw new ConflictError('Videos and animations cannot be printed', 'not_printable');
    return { eventId: row.event_id };
  }

  /** The capture app's own item is what will be printed; a photo it lost cannot be. */
  private async confirm(photoId: string): Promise<void> {
    const seen = this.confirmed.get(photoId);
    if (seen !== undefined && performance.now() - seen <= CONFIRMED_TTL_MS) return;
    let known: boolean;
    try {
      known = await this.askCapture(photoId);
    } catch (err) {
      // Its "file does not exist" answer: the capture app lost the picture it would print.
      if (err instanceof CaptureFileMissingError) throw unavailable('The capture app has lost this photo’s file');
      throw err;
    }
    if (!known) throw unavailable('The capture app no longer has this photo');
  }

  private askCapture(photoId: string): Promise<boolean> {
    const pending = this.asking.get(photoId);
    if (pending) return pending;
    const question = this.capture
      .getMediaItem(photoId)
      .then((item) => {
        if (item === null) {
          this.confirmed.delete(photoId);
          return false;
        }
        if (this.confirmed.size >= CONFIRMED_MAX) this.confirmed.clear();
        this.confirmed.set(photoId, performance.now());
        return true;
      })
      .finally(() => this.asking.delete(photoId));
    this.asking.set(photoId, question);
    return question;
  }

  async requestGuest(sessionId: string | undefined, address: string, photoId: string, copies: number): Promise<PrintRequestResult> {
    const s = this.printSettings();
    if (!s.enable) throw new ForbiddenError('Printing is turned off', 'print_disabled');
    if (sessionId === undefined) throw new SessionRequiredError();
    if ((await printerForPrint(this.worker, this.settings, this.clock, false)).pause === 'no_printer') throw new PrintUnavailableError();
    if (copies > s.max_copies) {
      throw new ValidationError(`Invalid request: copies: must be 1 to ${s.max_copies}`, {
        issues: [{ field: 'copies', message: `must be 1 to ${s.max_copies}` }],
      });
    }
    const { eventId } = this.indexed(photoId, true);
    const quota: GuestQuota = { ...this.quotaOf(s, sessionId, address, eventId), sessionId };
    // A session or phone already at its quota is told so without asking the capture app; the
    // transaction below is what decides, this only spares the round trip.
    const before = this.repo.remaining(quota);
    if (copies > before.remaining) throw new QuotaExceededError(before.remaining, before.scope);
    await this.confirm(photoId);
    const reservation = this.repo.reserveGuest({ ...quota, photoId, copies, now: this.clock.now() });
    if (!reservation.ok) throw new QuotaExceededError(reservation.remaining, reservation.scope);
    this.queued(reservation.job);
    return { job: this.toGuest(reservation.job), remaining: reservation.remaining };
  }

  /**
   * The operator's print: no quota, same queue. Refused while no printer can be chosen (it would
   * wait forever); the answer says when the printer will make it wait.
   */
  async requestAdmin(photoId: string, copies: number): Promise<PrintRequestResult> {
    const { eventId } = this.indexed(photoId, false);
    const printer = await printerForPrint(this.worker, this.settings, this.clock, true);
    if (printer.pause === 'no_printer') throw new NoPrinterError();
    await this.confirm(photoId);
    const job = this.repo.insertAdmin({ photoId, copies, eventId, now: this.clock.now() });
    this.queued(job);
    return { job: this.toGuest(job), remaining: null, printer_pause: printer.pause };
  }

  /** One copy of the newest photo, laid out as guests get theirs. */
  async testPage(): Promise<PrintRequestResult> {
    const photo = this.repo.newestPrintablePhoto(this.events.current()?.id ?? null) ?? this.repo.newestPrintablePhoto(null);
    if (!photo) throw new ConflictError('There is no photo to print a test page with: take one first', 'no_photo');
    return this.requestAdmin(photo, 1);
  }

  /** A person says a job CUPS forgot did come out. */
  countJob(id: number): AdminPrintJob {
    const row = this.repo.find(id);
    if (!row) throw new NotFoundError('No such print job');
    if (!this.repo.markCounted(id, this.clock.now()))
      throw new ConflictError('Only a job whose outcome is unknown can be counted by hand', 'not_countable');
    const done = this.repo.find(id);
    if (!done) throw new NotFoundError('No such print job');
    this.publishJob(done);
    return this.toAdmin(done);
  }

  /** The home screen's glance: the watched printer and the queue, without asking CUPS. */
  glance(): PrinterGlance {
    const counts = this.repo.stateCounts();
    return {
      printer: this.printerStatusNow(),
      queued: counts.queued,
      printing: counts.printing,
      failed: counts.failed,
      unknown: this.repo.unknownCount(),
    };
  }

  /** The paper sizes a printer declares (the chosen one by default), for the settings. */
  async papers(name: string | null): Promise<{ papers: PaperSize[]; default: string | null }> {
    const printer = name ?? this.printerStatusNow().name;
    if (!printer || !this.worker) return { papers: [], default: null };
    const details = await this.worker.watch.detailsOf(printer, true);
    return { papers: details.papers.map(paperSize), default: details.defaultPaper };
  }

  private queued(job: PrintJobRow): void {
    this.publishJob(job);
    this.worker?.kick();
  }

  /** Called by the worker on every change of a job. */
  publishJob(row: PrintJobRow): void {
    this.hub.publish('admin', 'print-job', this.toAdmin(row));
    this.hub.publish('gallery', 'print-job', this.toGuest(row));
    if (row.state === 'done') {
      this.photoService.announce({ type: 'updated', id: row.photo_id });
      this.hub.publish('admin', 'print-counters', this.counters());
    }
  }

  publishPrinter(status: PrinterStatus): void {
    this.hub.publish('admin', 'print-printer', status);
    this.hub.publish('gallery', 'print-status', { paused: status.pause });
  }

  job(id: number): AdminPrintJob {
    const row = this.repo.find(id);
    if (!row) throw new NotFoundError('No such print job');
    return this.toAdmin(row);
  }

  /** A guest's own job; another session's is as unknown as a missing one. */
  guestJob(sessionId: string | undefined, id: number): GuestPrintJob {
    const row = this.repo.find(id);
    if (!row || sessionId === undefined || row.session_id !== sessionId) throw new NotFoundError('No such print job');
    return this.toGuest(row);
  }

  async queue(): Promise<PrintQueueView> {
    const printer = (await this.worker?.refreshPrinter()) ?? this.printerStatusNow();
    return { jobs: this.repo.list(QUEUE_LIST_LIMIT).map((r) => this.toAdmin(r)), printer, counters: this.counters() };
  }

  private printerStatusNow(): PrinterStatus {
    return this.worker?.printerStatus() ?? UNKNOWN_PRINTER;
  }

  async printers(): Promise<PrinterChoice[]> {
    try {
      return (await this.printer.list()).map((p) => ({ name: p.name, is_default: p.isDefault, state: p.state }));
    } catch (err) {
      if (err instanceof PrinterUnreachableError) return [];
      throw err;
    }
  }

  async cancel(id: number): Promise<AdminPrintJob> {
    const row = this.repo.find(id);
    if (!row) throw new NotFoundError('No such print job');
    if (row.state === 'printing' && row.cups_job_id !== null) {
      // Sent already: CUPS drops it first, so that it cannot come out after being called cancelled.
      try {
        await this.printer.cancel(row.cups_job_id);
      } catch (err) {
        throw new PrinterUnavailableError(err instanceof Error ? err.message : String(err));
      }
      const cancelled = this.repo.cancel(id, this.clock.now(), true);
      if (cancelled) this.publishJob(cancelled);
      return this.job(id);
    }
    const cancelled = this.repo.cancel(id, this.clock.now());
    if (!cancelled) throw new ConflictError(`A ${row.state} job cannot be cancelled`, 'not_cancellable');
    this.publishJob(cancelled);
    return this.toAdmin(cancelled);
  }

  retry(id: number): AdminPrintJob {
    const row = this.repo.find(id);
    if (!row) throw new NotFoundError('No such print job');
    if (!this.repo.retry(id, this.clock.now()))
      throw new ConflictError(`Only a failed job can be retried; this one is ${row.state}`, 'not_retryable');
    const fresh = this.repo.find(id);
    if (!fresh) throw new NotFoundError('No such print job');
    this.queued(fresh);
    return this.toAdmin(fresh);
  }

  clearFinished(): { cleared: number } {
    return { cleared: this.repo.clearFinished() };
  }

  private startOfToday(): number {
    const d = new Date(this.clock.now());
    d.setHours(0, 0, 0, 0);
    return d.getTime();
  }

  counters(): PrintCounters {
    const current = this.events.current();
    return {
      event: current ? this.repo.copiesPrinted(this.repo.resetAt('event'), current.id) : 0,
      today: this.repo.copiesPrinted(Math.max(this.startOfToday(), this.repo.resetAt('today'))),
      total: this.repo.copiesPrinted(this.repo.resetAt('total')),
    };
  }

  resetCounter(counter: CounterName): PrintCounters {
    this.repo.reset(counter, this.clock.now());
    const counters = this.counters();
    this.hub.publish('admin', 'print-counters', counters);
    return counters;
  }

  /** For the maintenance dashboard: how the queue stands, without asking CUPS. */
  summary(): PrintQueueSummary {
    const counts = this.repo.stateCounts();
    const status = this.printerStatusNow();
    const pause = counts.queued + counts.printing > 0 ? status.pause : null;
    return { queued: counts.queued, printing: counts.printing, failed: counts.failed, paused: pause !== null, pause, printer: status.name };
  }

  private toGuest(row: PrintJobRow): GuestPrintJob {
    return {
      id: row.id,
      photo_id: row.photo_id,
      copies: row.copies,
      state: row.state,
      position: this.repo.position(row),
      error: row.error,
    };
  }

  private toAdmin(row: PrintJobRow): AdminPrintJob {
    return {
      ...this.toGuest(row),
      source: row.source,
      session: row.session_id ? row.session_id.slice(0, 6) : null,
      created_at: new Date(row.created_at).toISOString(),
      started_at: iso(row.started_at),
      finished_at: iso(row.finished_at),
      cups_job_id: row.cups_job_id,
      error_detail: row.error_detail,
      thumb_url: `/api/admin/photos/${row.photo_id}/thumb`,
    };
  }
}
