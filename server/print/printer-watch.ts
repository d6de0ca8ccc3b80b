import type { PaperSize, PrinterStatus } from '../contract/print.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { paperSize } from './paper-sizes.js';
import { readPrinterStatus } from './printer-monitor.js';
import { PrinterUnreachableError, type PrinterDetails, type PrinterPort } from './printer.port.js';

export interface PrinterWatchOptions {
  /** How often CUPS is asked for the printer's state (a paused printer shows within this). */
  everyMs: number;
  /** Paper sizes and supply levels change slowly: asked this often at most. */
  detailsEveryMs: number;
  /** How often while no one reads the state (attentive() false): at rest, the booth polls almost nothing. */
  restEveryMs?: number;
  /** Whether anyone reads the printer's state now (a console or gallery open, a job queued); always, unless given. */
  attentive?: () => boolean;
}

export const defaultWatchOptions: PrinterWatchOptions = { everyMs: 2000, detailsEveryMs: 30_000, restEveryMs: 30_000 };

/** What is known of a printer before CUPS has answered once. */
export const UNKNOWN_PRINTER: PrinterStatus = { name: null, state: 'unknown', reasons: [], message: '', pause: null, supplies: [] };
const NO_DETAILS: PrinterDetails = { papers: [], defaultPaper: null, supplies: [] };

/**
 * Watches the chosen printer all the time, not only while a job waits: its state, reasons and
 * supplies reach the console and the guests as soon as they change. One question at a time;
 * callers asking meanwhile share its answer.
 */
export class PrinterWatch {
  private last: PrinterStatus = UNKNOWN_PRINTER;
  private asking: Promise<PrinterStatus> | undefined;
  private timer: TimerHandle | undefined;
  private running = false;
  /** The next question is a resting one (restEveryMs away): someone who starts reading brings it forward. */
  private resting = false;
  private ticking = false;
  private readonly details = new Map<string, { at: number; value: PrinterDetails }>();

  constructor(
    private readonly printer: PrinterPort,
    private readonly chosen: () => string | null,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly changed: (status: PrinterStatus) => void,
    private readonly options: PrinterWatchOptions = defaultWatchOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    try {
      await this.refresh();
    } catch (err) {
      this.log.warn(`Reading the printer’s state failed; trying again shortly: ${String(err)}`);
    } finally {
      this.ticking = false;
    }
    if (!this.running) return;
    this.resting = this.options.attentive?.() === false;
    const every = this.resting ? (this.options.restEveryMs ?? this.options.everyMs) : this.options.everyMs;
    this.timer = this.clock.setTimeout(() => void this.tick(), every);
  }

  /** Someone reads the printer's state again (a job queued, a page asked for it): a resting watch asks now. */
  attend(): void {
    if (!this.running || !this.resting || this.ticking) return;
    this.resting = false;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    void this.tick();
  }

  /** The printer as last seen; reading it wakes a resting watch. */
  status(): PrinterStatus {
    this.attend();
    return this.last;
  }

  /** Asks CUPS now (or joins the question under way) and tells listeners when anything changed. */
  refresh(): Promise<PrinterStatus> {
    this.asking ??= this.read().finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async read(): Promise<PrinterStatus> {
    const base = await readPrinterStatus(this.printer, this.chosen());
    const next: PrinterStatus = {
      ...base,
      supplies: base.name && base.state !== 'unknown' ? (await this.detailsOf(base.name)).supplies : [],
    };
    if (JSON.stringify(next) !== JSON.stringify(this.last)) {
      this.last = next;
      this.changed(next);
    }
    return next;
  }

  /** Paper sizes and supplies, kept for a while; a printer that declares nothing declares nothing. */
  async detailsOf(name: string, fresh = false): Promise<PrinterDetails> {
    const kept = this.details.get(name);
    if (!fresh && kept && this.clock.monotonic() - kept.at < this.options.detailsEveryMs) return kept.value;
    let value: PrinterDetails;
    try {
      value = await this.printer.details(name);
    } catch (err) {
      if (!(err instanceof PrinterUnreachableError)) this.log.warn(`The options of printer ${name} could not be read: ${String(err)}`);
      value = kept?.value ?? NO_DETAILS;
    }
    if (this.details.size > 16) this.details.clear();
    this.details.set(name, { at: this.clock.monotonic(), value });
    return value;
  }

  /** The paper a job goes out on: the chosen one, else the printer's default, when known. */
  paper(chosen: string | null): PaperSize | null {
    if (chosen !== null) return paperSize(chosen);
    const name = this.last.name;
    const declared = name ? this.details.get(name)?.value.defaultPaper : null;
    return declared ? paperSize(declared) : null;
  }
}
