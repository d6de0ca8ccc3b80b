import type { PaperSize, PrinterStatus } from '../contract/print.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { paperSize } from './paper-sizes.js';
import { readPrinterStatus } from './printer-monitor.js';
import { PrinterUnreachableError, type ErrorPolicy, type PrinterDetails, type PrinterPort } from './printer.port.js';

export interface PrinterWatchOptions {
  /** How often CUPS is asked for the printer's state (a paused printer shows within this). */
  everyMs: number;
  /** Paper sizes and supply levels change slowly: asked this often at most. */
  detailsEveryMs: number;
  /**
   * How often while no one reads the state (attentive() false); undefined: not at all. Nobody
   * sees what the printer does meanwhile, and whoever looks next has the question asked at once.
   */
  restEveryMs?: number;
  /** Whether anyone reads the printer's state now (a console open, a job queued); always, unless given. */
  attentive?: () => boolean;
}

export const defaultWatchOptions: PrinterWatchOptions = { everyMs: 2000, detailsEveryMs: 30_000 };

/** What is known of a printer before CUPS has answered once. */
export const UNKNOWN_PRINTER: PrinterStatus = {
  name: null,
  state: 'unknown',
  reasons: [],
  message: '',
  pause: null,
  accepting: true,
  supplies: [],
  error_policy: null,
};
const NO_DETAILS: PrinterDetails = { papers: [], defaultPaper: null, supplies: [], errorPolicy: null };

/** What the watch needs of the settings: the printer chosen and the error policy it should have. */
export interface WatchedSettings {
  printer: string | null;
  error_policy: ErrorPolicy;
}

/**
 * Watches the chosen printer all the time, not only while a job waits: its state, reasons and
 * supplies reach the console and the guests as soon as they change. One question at a time;
 * callers asking meanwhile share its answer.
 */
export class PrinterWatch {
  private last: PrinterStatus = UNKNOWN_PRINTER;
  private asking: Promise<PrinterStatus> | undefined;
  /** Bumped when the settings change: a reading begun before is no longer fresh. */
  private generation = 0;
  private askingGeneration = -1;
  private readGeneration = -1;
  private timer: TimerHandle | undefined;
  private running = false;
  /** The next question is a resting one (restEveryMs away): someone who starts reading brings it forward. */
  private resting = false;
  private ticking = false;
  /** Someone started reading while a question was under way: that answer may predate them, so the next is not a resting one. */
  private attendedWhileTicking = false;
  private readonly details = new Map<string, { at: number; value: PrinterDetails }>();

  constructor(
    private readonly printer: PrinterPort,
    private readonly settings: () => WatchedSettings,
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
    this.timer = undefined;
    this.ticking = true;
    try {
      await this.refresh();
    } catch (err) {
      this.log.warn(`Reading the printer’s state failed; trying again shortly: ${String(err)}`);
    } finally {
      this.ticking = false;
    }
    if (!this.running) return;
    this.resting = this.options.attentive?.() === false && !this.attendedWhileTicking;
    this.attendedWhileTicking = false;
    if (!this.resting) this.timer = this.clock.setTimeout(() => void this.tick(), this.options.everyMs);
    else if (this.options.restEveryMs !== undefined) this.timer = this.clock.setTimeout(() => void this.tick(), this.options.restEveryMs);
  }

  /** Someone reads the printer's state again (a job queued, a page asked for it): a resting watch asks now. */
  attend(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.attendedWhileTicking = true;
      return;
    }
    if (!this.resting) return;
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
    if (!this.asking) {
      const generation = this.generation;
      this.askingGeneration = generation;
      this.asking = this.read()
        .then((status) => {
          this.readGeneration = Math.max(this.readGeneration, generation);
          return status;
        })
        .finally(() => (this.asking = undefined));
    }
    return this.asking;
  }

  /**
   * The settings changed (printer, paper, layout, error policy): what was read before no longer
   * holds, and the chosen printer's options and policy are read again.
   */
  invalidate(): void {
    this.generation++;
    this.details.clear();
  }

  /** True from a change of the settings until a reading begun after it has answered. */
  stale(): boolean {
    return this.readGeneration !== this.generation;
  }

  /** A reading begun after the last change of the settings: the one under way if it is, else a new one. */
  async fresh(): Promise<PrinterStatus> {
    for (;;) {
      const generation = this.generation;
      if (this.asking && this.askingGeneration === generation) return this.asking;
      if (this.asking) {
        await this.asking.catch(() => undefined);
        continue;
      }
      if (this.readGeneration === generation) return this.last;
      return this.refresh();
    }
  }

  /** A reading begun now, after any under way (which may predate what the caller just did to CUPS). */
  async reread(): Promise<PrinterStatus> {
    if (this.asking) await this.asking.catch(() => undefined);
    return this.refresh();
  }

  /** A fresh reading, or the last one when CUPS takes longer than `ms` (prints never wait longer). */
  freshWithin(ms: number): Promise<PrinterStatus> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => resolve(this.last), ms);
      this.fresh().then(
        (status) => {
          this.clock.clearTimeout(timer);
          resolve(status);
        },
        () => {
          this.clock.clearTimeout(timer);
          resolve(this.last);
        },
      );
    });
  }

  private async read(): Promise<PrinterStatus> {
    let chosen = this.settings().printer;
    let base = await readPrinterStatus(this.printer, chosen);
    // The printer was chosen while CUPS was being asked: the answer is about the old choice.
    for (let i = 0; i < 2 && this.settings().printer !== chosen; i++) {
      chosen = this.settings().printer;
      base = await readPrinterStatus(this.printer, chosen);
    }
    const details = base.name && base.state !== 'unknown' ? await this.detailsOf(base.name) : NO_DETAILS;
    const next: PrinterStatus = { ...base, supplies: details.supplies, error_policy: details.errorPolicy };
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
      value = await this.keepPolicy(name, await this.printer.details(name));
    } catch (err) {
      if (!(err instanceof PrinterUnreachableError)) this.log.warn(`The options of printer ${name} could not be read: ${String(err)}`);
      value = kept?.value ?? NO_DETAILS;
    }
    if (this.details.size > 16) this.details.clear();
    this.details.set(name, { at: this.clock.monotonic(), value });
    return value;
  }

  /**
   * The queue in use gets the error policy the operator chose; read with its details (every 30 s
   * at most, and at once after a change of the settings), set again whenever CUPS reports another.
   */
  private async keepPolicy(name: string, details: PrinterDetails): Promise<PrinterDetails> {
    const wanted = this.settings().error_policy;
    if (details.errorPolicy === null || details.errorPolicy === wanted) return details;
    try {
      await this.printer.setErrorPolicy(name, wanted);
      this.log.info(`Printer ${name}: error policy set to ${wanted} (CUPS had ${details.errorPolicy})`);
      return { ...details, errorPolicy: wanted };
    } catch (err) {
      this.log.warn(`The error policy of printer ${name} could not be set to ${wanted}: ${String(err)}`);
      return details;
    }
  }

  /** The paper a job goes out on: the chosen one, else the printer's default, when known. */
  paper(chosen: string | null): PaperSize | null {
    if (chosen !== null) return paperSize(chosen);
    const name = this.last.name;
    const declared = name ? this.details.get(name)?.value.defaultPaper : null;
    return declared ? paperSize(declared) : null;
  }
}
