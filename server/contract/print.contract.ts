/**
 * A print job's life: queued → printing → done, or failed / cancelled. A job CUPS no longer knows
 * is `failed` with the error `unknown_outcome`: it may or may not have come out, a person says.
 */
export type PrintJobState = 'queued' | 'printing' | 'done' | 'failed' | 'cancelled';

/**
 * Why the queue is not moving, in codes the front ends turn into sentences. `null` when the
 * printer is ready (or no job waits for it).
 */
export type PrintPauseReason =
  'no_printer' | 'unreachable' | 'stopped' | 'out_of_paper' | 'out_of_ink' | 'jammed' | 'door_open' | 'offline' | null;

/** The printer as CUPS describes it. */
export interface PrinterStatus {
  name: string | null;
  state: 'idle' | 'printing' | 'stopped' | 'unreachable' | 'unknown';
  /** CUPS's printer-state-reasons (`media-empty-error`, `paused`…), for the operator. */
  reasons: string[];
  /** CUPS's own message for the operator (the text given to `cupsdisable -r`, a backend's report). */
  message: string;
  /** Why a job sent now would wait, or null: watched all the time, not only while jobs wait. */
  pause: PrintPauseReason;
  /** False when CUPS refuses new jobs for this queue (`cupsreject`); its pause is then `stopped`. */
  accepting: boolean;
  /** Ink, ribbon, paper or toner levels, where the printer reports them (empty otherwise). */
  supplies: PrinterSupply[];
  /**
   * The queue's printer-error-policy as CUPS reports it (read every 30 s at most); null when not
   * known. Boothdeck sets it to the settings' `error_policy`; another value means CUPS refused.
   */
  error_policy: string | null;
}

/** One marker or supply the printer reports (IPP marker-names / marker-levels). */
export interface PrinterSupply {
  name: string;
  /** 0 to 100; null when the printer reports it only as present or unknown (-1, -2, -3). */
  level: number | null;
  /** IPP marker-types (`ink-cartridge`, `ribbon-wax`, `toner`…), '' when not given. */
  type: string;
}

/** A paper size the printer declares (its PageSize option), with its size where it is known. */
export interface PaperSize {
  /** The name lp gets (`A5`, `w288h432`, `Custom.4x6in`). */
  name: string;
  width_mm: number | null;
  height_mm: number | null;
}

/** How a photo is put on the paper: `fill` crops it to the paper (no white margin), `fit` shows it whole. */
export type PrintLayout = 'fill' | 'fit';

/** What the home screen's printer glance shows, without asking CUPS (the watcher has). */
export interface PrinterGlance {
  printer: PrinterStatus;
  queued: number;
  printing: number;
  failed: number;
  /** Jobs CUPS forgot: printed or not, a person must say. */
  unknown: number;
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
    /** Which limit `remaining` comes from: this session's quota, or the allowance of the guest's phone (its address). */
    limited_by: 'session' | 'address';
    max_copies: number;
    /** Why a print would wait or cannot be made (`out_of_paper`, `no_printer`…); null when the printer is ready. */
    paused: PrintPauseReason;
    /** The paper the photo comes out on, for the preview (null when the booth does not know its size). */
    paper: PaperSize | null;
    layout: PrintLayout;
    /** False when this browser has no gallery session yet (a print would be refused). */
    has_session: boolean;
  };
}

export interface PrintRequestResult {
  job: GuestPrintJob;
  /** Copies this session may still order (null for the operator's prints, which have no quota). */
  remaining: number | null;
  /** Why the job will wait at the printer (null when it is ready): the operator is told before it is called sent. */
  printer_pause?: PrintPauseReason;
}

/**
 * What "Reprendre l'impression" did: `resumed` when the printer is ready (or printing) after it,
 * `still_paused` when it reports a problem again (CUPS stopped it again, the paper is still out):
 * `printer.pause` says which; `not_stopped` when CUPS had not stopped the queue (nothing done).
 * Waiting jobs stay in the queue, in order, either way.
 */
export interface PrinterResumeResult {
  outcome: 'resumed' | 'still_paused' | 'not_stopped';
  printer: PrinterStatus;
  /** The same in an English sentence, for API users; the console says it in its own words. */
  message: string;
}

export interface PrinterChoice {
  name: string;
  is_default: boolean;
  state: PrinterStatus['state'];
}
