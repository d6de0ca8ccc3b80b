/** A CUPS job as far as the queue cares. `gone` when CUPS no longer knows the id. */
export type PrinterJobState = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled' | 'gone';

export interface PrinterJobStatus {
  state: PrinterJobState;
  /** CUPS's words about a failure, when it gave any. */
  detail: string;
}

export interface PrinterInfo {
  name: string;
  state: 'idle' | 'printing' | 'stopped';
  /** printer-state-reasons, `none` left out. */
  reasons: string[];
  /** The operator-facing message (the reason given to `cupsdisable -r`, a backend's report). */
  message: string;
  isDefault: boolean;
}

export class PrinterUnreachableError extends Error {}

/**
 * The photo printer. The real adapter speaks to CUPS with lp/lpstat/cancel; the fake records
 * jobs. Every method rejects with PrinterUnreachableError when the print system does not answer.
 */
export interface PrinterPort {
  list(): Promise<PrinterInfo[]>;
  /** Sends a file; resolves with the CUPS job id (`PDF-12`). */
  submit(printer: string, file: string, copies: number, title: string): Promise<string>;
  jobStatus(printer: string, jobId: string): Promise<PrinterJobStatus>;
  cancel(jobId: string): Promise<void>;
}
