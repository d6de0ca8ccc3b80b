import { AppError } from '../core/errors.js';

/** The guest's session has not enough copies left; nothing was queued. */
export class QuotaExceededError extends AppError {
  constructor(remaining: number, scope: 'session' | 'address' = 'session') {
    const who = scope === 'address' ? 'This phone' : 'This session';
    super(429, 'quota_exceeded', `${who} may print ${remaining} more ${remaining === 1 ? 'copy' : 'copies'}`, { remaining, scope });
  }
}

/** CUPS did not do what the operator asked (it does not answer, or refused); nothing changed here. */
export class PrinterUnavailableError extends AppError {
  constructor(detail: string) {
    super(503, 'printer_unavailable', `The print system did not answer: ${detail}`);
  }
}

/** A guest's print while no printer can be chosen: refused, never queued to wait forever. */
export class PrintUnavailableError extends AppError {
  constructor() {
    super(503, 'print_unavailable', 'Printing is unavailable: no printer is chosen at the booth');
  }
}

/** The operator's print while no printer can be chosen: refused with the way out. */
export class NoPrinterError extends AppError {
  constructor() {
    super(409, 'no_printer', 'No printer is chosen or known to CUPS: choose one on the Printing page');
  }
}

/** A print that needs a gallery session (a visit to the gallery) came without one. */
export class SessionRequiredError extends AppError {
  constructor() {
    super(403, 'session_required', 'Open the gallery before printing: this browser has no gallery session');
  }
}

/** CUPS refused to resume the queue or set its policy: the booth's user is not in the lpadmin group. */
export class PrinterNotPermittedError extends AppError {
  constructor(detail: string) {
    super(503, 'printer_not_permitted', `CUPS refused: Boothdeck's user may not manage printers (add it to the lpadmin group): ${detail}`);
  }
}
