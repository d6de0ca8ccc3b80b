import type { GuestPrintJob, GuestPrintSession, PrintRequestResult } from '../../../server/contract/print.contract.js';
import { api } from '../../shared/http.js';

export const printService = {
  session: () => api.get<GuestPrintSession>('/api/gallery/session'),
  job: (id: number) => api.get<{ job: GuestPrintJob }>(`/api/gallery/print/jobs/${id}`),
  print: (photoId: string, copies: number) =>
    api.post<PrintRequestResult>(`/api/gallery/photos/${encodeURIComponent(photoId)}/print`, { copies }),
};
