import type { PrinterStatus } from '../contract/print.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { PrintWorker } from './print-worker.js';
import { UNKNOWN_PRINTER } from './printer-watch.js';

/** How long a print waits for the printer's reading after the print settings changed (or while they are saved). */
export const FRESH_PRINTER_WAIT_MS = 3_000;

/** What a print needs to know of the settings being saved. */
export interface SavingSettings {
  saving(): boolean;
  settled(): Promise<void>;
}

/** A promise's value, or `fallback` once `ms` have passed (or when it fails). */
export function within<T>(clock: Clock, promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = clock.setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      () => {
        clock.clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/**
 * The printer a print is decided on. Right after the print settings changed, or while they are
 * being saved, the watch's last reading is about the old choice: the print waits (at most
 * FRESH_PRINTER_WAIT_MS) for the reading that follows, so a printer just chosen is never "no
 * printer". `ask` reads CUPS even when nothing changed (the operator is told whether the job will wait).
 */
export async function printerForPrint(
  worker: PrintWorker | undefined,
  settings: SavingSettings,
  clock: Clock,
  ask: boolean,
): Promise<PrinterStatus> {
  if (!worker) return UNKNOWN_PRINTER;
  const last = worker.printerStatus();
  const stale = worker.watch.stale();
  if (!stale && !ask && last.pause !== 'no_printer' && !settings.saving()) return last;
  const end = clock.monotonic() + FRESH_PRINTER_WAIT_MS;
  const left = (): number => Math.max(0, end - clock.monotonic());
  let status = stale ? await worker.watch.freshWithin(left()) : await within(clock, worker.refreshPrinter(), left(), last);
  while (status.pause === 'no_printer' && settings.saving() && left() > 0) {
    await within(clock, settings.settled(), left(), undefined);
    status = await worker.watch.freshWithin(left());
  }
  return status;
}
