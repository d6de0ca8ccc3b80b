import type { PrinterStatus, PrintPauseReason } from '../contract/print.contract.js';
import { PrinterUnreachableError, type PrinterInfo, type PrinterPort } from './printer.port.js';

/** printer-state-reasons that stop paper coming out even while CUPS calls the queue enabled. */
const BLOCKING: [RegExp, Exclude<PrintPauseReason, null>][] = [
  [/^media-(empty|needed)/, 'out_of_paper'],
  [/^(marker-supply-empty|toner-empty|marker-waste-full)/, 'out_of_ink'],
  [/^media-jam/, 'jammed'],
  [/^door-open/, 'door_open'],
  [/^(offline|connecting-to-device|shutdown|timed-out)/, 'offline'],
];

export function pauseOf(info: PrinterInfo): PrintPauseReason {
  // A "-warning" (low paper, low ink) still prints; errors and reports do not.
  const blocking = info.reasons.filter((r) => !r.endsWith('-warning'));
  for (const [pattern, reason] of BLOCKING) if (blocking.some((r) => pattern.test(r))) return reason;
  // A message such as "Paper out" given to cupsdisable -r says more than "stopped".
  if (info.state === 'stopped') return /paper|media/i.test(info.message) ? 'out_of_paper' : 'stopped';
  // A queue that refuses jobs (cupsreject) is as stopped as a disabled one: lp would fail.
  if (info.accepting === false) return 'stopped';
  return null;
}

/** Which printer the queue uses: the chosen one, else CUPS's default, else its only printer. */
export function choosePrinter(list: PrinterInfo[], chosen: string | null): PrinterInfo | undefined {
  if (chosen !== null) return list.find((p) => p.name === chosen);
  return list.find((p) => p.isDefault) ?? (list.length === 1 ? list[0] : undefined);
}

/** Reads the printer's state from CUPS and turns it into the queue's pause reason (supplies and policy are the watcher's). */
export async function readPrinterStatus(
  printer: PrinterPort,
  chosen: string | null,
): Promise<Omit<PrinterStatus, 'supplies' | 'error_policy'>> {
  let list: PrinterInfo[];
  try {
    list = await printer.list();
  } catch (err) {
    const message = err instanceof PrinterUnreachableError ? err.message : String(err);
    return { name: chosen, state: 'unreachable', reasons: [], message, pause: 'unreachable', accepting: true };
  }
  const info = choosePrinter(list, chosen);
  if (!info) return { name: chosen, state: 'unknown', reasons: [], message: '', pause: 'no_printer', accepting: true };
  return {
    name: info.name,
    state: info.state,
    reasons: info.reasons,
    message: info.message,
    pause: pauseOf(info),
    accepting: info.accepting !== false,
  };
}
