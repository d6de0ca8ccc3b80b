import type { PrinterSupply } from '../contract/print.contract.js';

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
  /** False when CUPS refuses new jobs for it (`cupsreject`): lp would fail. Absent means accepting. */
  accepting?: boolean;
}

/**
 * What CUPS does when the printer reports an error (its printer-error-policy): retry the job
 * (a refilled printer goes on by itself) or stop the queue until a person resumes it.
 */
export const ERROR_POLICIES = ['retry-current-job', 'stop-printer'] as const;
export type ErrorPolicy = (typeof ERROR_POLICIES)[number];

/** How one job is laid out: `lp` options, never free text. */
export interface SubmitOptions {
  copies: number;
  title: string;
  /** A PageSize the printer declares; null leaves the printer's default. */
  paper: string | null;
  layout: 'fill' | 'fit';
  /**
   * The page orientation asked of CUPS (orientation-requested): `landscape` turns the photo a
   * quarter onto the paper (a landscape photo on portrait paper, or the reverse), `portrait`
   * leaves it as it is; null when the photo could not be read (CUPS then decides).
   */
  orientation: 'portrait' | 'landscape' | null;
}

/** What a printer declares beyond its state: paper sizes and supply levels. */
export interface PrinterDetails {
  papers: string[];
  defaultPaper: string | null;
  supplies: PrinterSupply[];
  /** The queue's printer-error-policy as CUPS reports it (any CUPS keyword); null when unknown. */
  errorPolicy: string | null;
}

/** CUPS refused a command for lack of rights (the booth's user is not in the lpadmin group). */
export class PrinterForbiddenError extends Error {}

export class PrinterUnreachableError extends Error {}

/**
 * The photo printer. The real adapter speaks to CUPS with lp/lpstat/cancel; the fake records
 * jobs. Every method rejects with PrinterUnreachableError when the print system does not answer.
 */
export interface PrinterPort {
  list(): Promise<PrinterInfo[]>;
  /** Paper sizes and supplies of one printer (empty lists where it declares none). */
  details(printer: string): Promise<PrinterDetails>;
  /** Sends a file; resolves with the CUPS job id (`PDF-12`). */
  submit(printer: string, file: string, options: SubmitOptions): Promise<string>;
  jobStatus(printer: string, jobId: string): Promise<PrinterJobStatus>;
  cancel(jobId: string): Promise<void>;
  /** Enables the queue and makes it accept jobs again (cupsenable + cupsaccept); waiting jobs stay, in order. */
  resume(printer: string): Promise<void>;
  /** Sets the queue's printer-error-policy (lpadmin). */
  setErrorPolicy(printer: string, policy: ErrorPolicy): Promise<void>;
}
