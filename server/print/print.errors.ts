import { AppError } from '../core/errors.js';

/** The guest's session has not enough copies left; nothing was queued. */
export class QuotaExceededError extends AppError {
  constructor(remaining: number) {
    super(429, 'quota_exceeded', `This session may print ${remaining} more ${remaining === 1 ? 'copy' : 'copies'}`, { remaining });
  }
}

/** CUPS did not do what the operator asked (it does not answer, or refused); nothing changed here. */
export class PrinterUnavailableError extends AppError {
  constructor(detail: string) {
    super(503, 'printer_unavailable', `The print system did not answer: ${detail}`);
  }
}
