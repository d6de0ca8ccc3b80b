import type { RestartStatus } from '../../../server/contract/system.contract.js';
import { api } from '../../shared/http.js';

export interface AdminStreamHandlers {
  restart?: (status: RestartStatus) => void;
  open?: () => void;
  error?: () => void;
}

export const systemService = {
  restartStatus: () => api.get<RestartStatus>('/api/admin/system/capture-restart'),
  requestRestart: () => api.post<RestartStatus>('/api/admin/system/capture-restart'),
  /** The console's live stream; the browser reconnects it by itself. */
  openStream(handlers: AdminStreamHandlers): () => void {
    const source = new EventSource('/api/admin/stream');
    source.addEventListener('restart', (e) => handlers.restart?.(JSON.parse((e as MessageEvent<string>).data) as RestartStatus));
    source.addEventListener('open', () => handlers.open?.());
    source.addEventListener('error', () => handlers.error?.());
    return () => source.close();
  },
};
