import type { GuestPrintSession, PrintRequestResult } from '../../../server/contract/print.contract.js';
import { api } from '../../shared/http.js';

export const printService = {
  session: () => api.get<GuestPrintSession>('/api/gallery/session'),
  print: (photoId: string, copies: number) =>
    api.post<PrintRequestResult>(`/api/gallery/photos/${encodeURIComponent(photoId)}/print`, { copies }),
};
