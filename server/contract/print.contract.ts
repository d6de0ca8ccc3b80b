/** A print job's life: queued → printing → done, or failed / cancelled. */
export type PrintJobState = 'queued' | 'printing' | 'done' | 'failed' | 'cancelled';

/**
 * Why the queue is not moving, in codes the front ends turn into sentences. `null` when the
 * printer is ready (or no job waits for it).
 */
export type PrintPauseReason = 'no_printer' | 'unreachable' | 'stopped' | 'out_of_paper' | 'out_of_ink' | 'jammed' | 'offline' | null;

/** The printer as CUPS describes it. */
export interface PrinterStatus {
  name: string | null;
  state: 'idle' | 'printing' | 'stopped' | 'unreachable' | 'unknown';
  /** CUPS's printer-state-reasons (`media-empty-error`, `paused`…), for the operator. */
  reasons: string[];
  /** CUPS's own message for the operator (the text given to `cupsdisable -r`, a backend's report). */
  message: string;
  /** The queue's view of it: why jobs wait, or null. */
  pause: PrintPauseReason;
}

/** What a guest sees of a job they sent. */
export interface GuestPrintJob {
  id: number;
  photo_id: string;
  copies: number;
  state: PrintJobState;
  /** Jobs ahead of this one in the queue (0 when it is next or not queued). */
  position: number;
  /** A code the gallery turns into a sentence (`printer_failed`, `photo_missing`…), when failed. */
  error: string | null;
}

/** A job in the operator's queue. */
export interface AdminPrintJob extends GuestPrintJob {
  source: 'guest' | 'admin';
  /** A short tag of the guest session (never the secret cookie). */
  session: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  cups_job_id: string | null;
  /** The printer's or the system's words, for the operator. */
  error_detail: string | null;
  thumb_url: string;
}

export interface PrintCounters {
  /** Copies printed for the current event (0 without one). */
  event: number;
  today: number;
  total: number;
}

export interface PrintQueueView {
  jobs: AdminPrintJob[];
  printer: PrinterStatus;
  counters: PrintCounters;
}

/** A small summary for the maintenance dashboard. */
export interface PrintQueueSummary {
  queued: number;
  printing: number;
  failed: number;
  paused: boolean;
  pause: PrintPauseReason;
  printer: string | null;
}

export interface GuestPrintSession {
  print: {
    enabled: boolean;
    quota: number;
    used: number;
    remaining: number;
    max_copies: number;
    /** Why the queue waits, so a guest can be told (`out_of_paper`…); null when it moves. */
    paused: PrintPauseReason;
  };
}

export interface PrintRequestResult {
  job: GuestPrintJob;
  /** Copies this session may still order (null for the operator's prints, which have no quota). */
  remaining: number | null;
}

export interface PrinterChoice {
  name: string;
  is_default: boolean;
  state: PrinterStatus['state'];
}
