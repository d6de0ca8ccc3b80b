import type {
  AdminPrintJob,
  PaperSize,
  PrintCounters,
  PrinterChoice,
  PrinterGlance,
  PrintQueueView,
  PrintRequestResult,
  PrinterResumeResult,
} from '../../../server/contract/print.contract.js';
import type { PrintSettings, Settings } from '../../../server/contract/settings.contract.js';
import { api } from '../../shared/http.js';

export type CounterName = keyof PrintCounters;

export const printService = {
  queue: () => api.get<PrintQueueView>('/api/admin/print/queue'),
  printers: () => api.get<{ printers: PrinterChoice[] }>('/api/admin/print/printers'),
  settings: async (): Promise<PrintSettings> => (await api.get<Settings>('/api/admin/settings')).print,
  saveSettings: async (print: PrintSettings): Promise<PrintSettings> => (await api.put<Settings>('/api/admin/settings', { print })).print,
  cancel: (id: number) => api.post<{ job: AdminPrintJob }>(`/api/admin/print/jobs/${id}/cancel`),
  retry: (id: number) => api.post<{ job: AdminPrintJob }>(`/api/admin/print/jobs/${id}/retry`),
  clear: () => api.post<{ cleared: number }>('/api/admin/print/queue/clear'),
  resetCounter: (counter: CounterName) => api.post<{ counters: PrintCounters }>('/api/admin/print/counters/reset', { counter }),
  count: (id: number) => api.post<{ job: AdminPrintJob }>(`/api/admin/print/jobs/${id}/count`),
  glance: () => api.get<PrinterGlance>('/api/admin/print/glance'),
  papers: (printer: string | null) =>
    api.get<{ papers: PaperSize[]; default: string | null }>(
      printer === null ? '/api/admin/print/papers' : `/api/admin/print/papers?printer=${encodeURIComponent(printer)}`,
    ),
  resumePrinter: () => api.post<PrinterResumeResult>('/api/admin/print/printer/resume'),
  testPage: () => api.post<PrintRequestResult>('/api/admin/print/test-page'),
  printPhoto: (photoId: string, copies: number) =>
    api.post<PrintRequestResult>(`/api/admin/photos/${encodeURIComponent(photoId)}/print`, { copies }),
};
