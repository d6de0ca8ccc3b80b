import type { AdminPhoto } from '../../../server/contract/photos.contract.js';
import type { RestartStatus } from '../../../server/contract/system.contract.js';
import { api } from '../../shared/http.js';

export interface AdminStreamHandlers {
  restart?: (status: RestartStatus) => void;
  photoAdded?: (photo: AdminPhoto) => void;
  photoUpdated?: (photo: AdminPhoto) => void;
  photoRemoved?: (id: string) => void;
  event?: () => void;
  open?: () => void;
  error?: () => void;
}

export const systemService = {
  restartStatus: () => api.get<RestartStatus>('/api/admin/system/capture-restart'),
  requestRestart: () => api.post<RestartStatus>('/api/admin/system/capture-restart'),
  /** The console's live stream; the browser reconnects it by itself. */
  openStream(handlers: AdminStreamHandlers): () => void {
    const source = new EventSource('/api/admin/stream');
    const data = <T>(e: Event): T => JSON.parse((e as MessageEvent<string>).data) as T;
    source.addEventListener('restart', (e) => handlers.restart?.(data<RestartStatus>(e)));
    source.addEventListener('photo-added', (e) => handlers.photoAdded?.(data<AdminPhoto>(e)));
    source.addEventListener('photo-updated', (e) => handlers.photoUpdated?.(data<AdminPhoto>(e)));
    source.addEventListener('photo-removed', (e) => handlers.photoRemoved?.(data<{ id: string }>(e).id));
    source.addEventListener('event', () => handlers.event?.());
    source.addEventListener('open', () => handlers.open?.());
    source.addEventListener('error', () => handlers.error?.());
    return () => source.close();
  },
};
