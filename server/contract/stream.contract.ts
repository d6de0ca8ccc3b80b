import type { AdminPhoto, PublicPhoto } from './photos.contract.js';
import type { AdminPrintJob, GuestPrintJob, PrintCounters, PrinterStatus, PrintPauseReason } from './print.contract.js';
import type { RestartStatus } from './system.contract.js';
import type { CaptureJobsStatus } from './capture.contract.js';
import type { OnlineLink } from './publish.contract.js';

/**
 * Every live event, by channel: what the service publishes, what the SSE routes send, and what
 * the console and the guest gallery listen for. A new event is added here first.
 */
export interface StreamEvents {
  admin: {
    restart: RestartStatus;
    'photo-added': AdminPhoto;
    'photo-updated': AdminPhoto;
    'photo-removed': { id: string };
    event: { slug: string };
    'print-job': AdminPrintJob;
    'print-printer': PrinterStatus;
    'print-counters': PrintCounters;
    /** The jobs the capture app failed, after each change. */
    'capture-jobs': CaptureJobsStatus;
  };
  gallery: {
    'photo-added': PublicPhoto;
    'photo-updated': PublicPhoto;
    'photo-removed': { id: string };
    event: { name: string };
    /** Every job's state (guests match their own by id; no session is sent). */
    'print-job': GuestPrintJob;
    'print-status': { paused: PrintPauseReason };
    /** The current event's address online changed (published, withdrawn, another event). */
    online: OnlineLink;
  };
}

export type StreamChannel = keyof StreamEvents;
export type StreamEventName<C extends StreamChannel> = keyof StreamEvents[C] & string;

/** One event of a channel with its payload, as a union the compiler can narrow by name. */
export type StreamMessage<C extends StreamChannel> = {
  [E in StreamEventName<C>]: { event: E; data: StreamEvents[C][E] };
}[StreamEventName<C>];
