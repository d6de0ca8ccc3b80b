import type { AdminPhoto } from '../../../server/contract/photos.contract.js';
import type { RestartStatus } from '../../../server/contract/system.contract.js';
import type { CaptureJobsStatus } from '../../../server/contract/capture.contract.js';
import { api } from '../../shared/http.js';
import { openStream } from '../../shared/stream.js';
import type { AdminPrintJob, PrintCounters, PrinterStatus } from '../../../server/contract/print.contract.js';

export interface AdminStreamHandlers {
  restart?: (status: RestartStatus) => void;
  photoAdded?: (photo: AdminPhoto) => void;
  photoUpdated?: (photo: AdminPhoto) => void;
  photoRemoved?: (id: string) => void;
  event?: () => void;
  printJob?: (job: AdminPrintJob) => void;
  printPrinter?: (status: PrinterStatus) => void;
  printCounters?: (counters: PrintCounters) => void;
  captureJobs?: (status: CaptureJobsStatus) => void;
  open?: () => void;
  error?: () => void;
}

export const systemService = {
  restartStatus: () => api.get<RestartStatus>('/api/admin/system/capture-restart'),
  requestRestart: () => api.post<RestartStatus>('/api/admin/system/capture-restart'),
  /** While a restart waits for a guest's job: go ahead now. */
  restartNow: () => api.post<RestartStatus>('/api/admin/system/capture-restart/now'),
  captureJobs: () => api.get<CaptureJobsStatus>('/api/admin/capture/jobs'),
  markJobsSeen: (id: number) => api.post<CaptureJobsStatus>('/api/admin/capture/jobs/seen', { id }),
  /** The console's live stream; the browser reconnects it by itself. */
  openStream(handlers: AdminStreamHandlers): () => void {
    const stream = openStream('admin', '/api/admin/stream');
    stream.on('restart', (status) => handlers.restart?.(status));
    stream.on('photo-added', (photo) => handlers.photoAdded?.(photo));
    stream.on('photo-updated', (photo) => handlers.photoUpdated?.(photo));
    stream.on('photo-removed', ({ id }) => handlers.photoRemoved?.(id));
    stream.on('event', () => handlers.event?.());
    stream.on('print-job', (job) => handlers.printJob?.(job));
    stream.on('print-printer', (status) => handlers.printPrinter?.(status));
    stream.on('print-counters', (counters) => handlers.printCounters?.(counters));
    stream.on('capture-jobs', (status) => handlers.captureJobs?.(status));
    stream.onOpen(() => handlers.open?.());
    stream.onError(() => handlers.error?.());
    return () => stream.close();
  },
};
