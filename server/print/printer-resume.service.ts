import type { PrinterResumeResult, PrinterStatus } from '../contract/print.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import { NoPrinterError, PrinterNotPermittedError, PrinterUnavailableError } from './print.errors.js';
import type { PrintRepository } from './print.repository.js';
import type { PrintWorker } from './print-worker.js';
import { PrinterForbiddenError, PrinterUnreachableError, type PrinterInfo, type PrinterPort } from './printer.port.js';

export interface ResumeOptions {
  /**
   * How long the printer is watched after resuming while jobs wait: CUPS stops a queue again only
   * once its backend has failed again, which takes a moment.
   */
  settleMs: number;
  /** Longer while CUPS is busy with a job (its filters, then its backend): that attempt's outcome is near. */
  busySettleMs: number;
  /** How often it is read meanwhile. */
  stepMs: number;
}

export const defaultResumeOptions: ResumeOptions = { settleMs: 2000, busySettleMs: 8000, stepMs: 250 };

/**
 * "Reprendre l'impression": enables the queue CUPS stopped (its error policy, a paper-out, a
 * cupsdisable) and makes it accept jobs again. Waiting jobs stay where they are: the one in
 * CUPS goes on, the others follow in order. The answer says whether the printer is really ready.
 */
export class PrinterResumeService {
  constructor(
    private readonly printer: PrinterPort,
    private readonly worker: PrintWorker,
    private readonly repo: PrintRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: ResumeOptions = defaultResumeOptions,
  ) {}

  async resume(): Promise<PrinterResumeResult> {
    const status = await this.worker.watch.reread();
    if (status.pause === 'unreachable') throw new PrinterUnavailableError(status.message || 'CUPS does not answer');
    const queue = await this.queueOf(status);
    if (queue.state !== 'stopped' && queue.accepting !== false) {
      return { outcome: 'not_stopped', printer: status, message: `Printer ${queue.name} was not stopped: there was nothing to resume` };
    }
    try {
      await this.printer.resume(queue.name);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      if (err instanceof PrinterForbiddenError) throw new PrinterNotPermittedError(detail);
      throw new PrinterUnavailableError(detail);
    }
    this.log.info(`Printer ${queue.name} resumed from the console`);
    this.worker.kick();
    const after = await this.settle();
    if (after.pause) {
      return {
        outcome: 'still_paused',
        printer: after,
        message: `Printer ${queue.name} was resumed, but it still reports a problem (${after.pause}): the jobs keep waiting`,
      };
    }
    return { outcome: 'resumed', printer: after, message: `Printer ${queue.name} was resumed: waiting jobs print in order` };
  }

  /** The queue the watch uses, as CUPS lists it: never a name taken from the request. */
  private async queueOf(status: PrinterStatus): Promise<PrinterInfo> {
    let list: PrinterInfo[];
    try {
      list = await this.printer.list();
    } catch (err) {
      if (err instanceof PrinterUnreachableError) throw new PrinterUnavailableError(err.message);
      throw err;
    }
    const queue = status.name === null ? undefined : list.find((p) => p.name === status.name);
    if (!queue) throw new NoPrinterError();
    return queue;
  }

  /**
   * The printer after resuming: read at once, then, while jobs wait, watched until it reports a
   * problem again (CUPS stopped it, the paper is still out), a job comes out, or `settleMs` passes
   * (`busySettleMs` while CUPS is printing). The console keeps following the printer afterwards.
   */
  private async settle(): Promise<PrinterStatus> {
    const waiting = (): number => {
      const counts = this.repo.stateCounts();
      return counts.queued + counts.printing;
    };
    const before = waiting();
    const start = this.clock.monotonic();
    const watching = (status: PrinterStatus): boolean => {
      const elapsed = this.clock.monotonic() - start;
      return elapsed < this.options.settleMs || (status.state === 'printing' && elapsed < this.options.busySettleMs);
    };
    let status = await this.worker.watch.reread();
    while (status.pause === null && before > 0 && waiting() >= before && watching(status)) {
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, this.options.stepMs));
      status = await this.worker.watch.reread();
    }
    return status;
  }
}
