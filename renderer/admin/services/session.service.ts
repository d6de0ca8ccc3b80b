import type { SessionStatus } from '../../../server/contract/session.contract.js';
import { api } from '../../shared/http.js';

export const sessionService = {
  status: () => api.get<SessionStatus>('/api/admin/session', { expectUnauthorized: true }),
  signIn: (pin: string) => api.post<void>('/api/admin/session', { pin }, { expectUnauthorized: true }),
  signOut: () => api.delete<void>('/api/admin/session', { expectUnauthorized: true }),
  setInitialPin: (pin: string) => api.post<void>('/api/admin/session/pin', { pin }, { expectUnauthorized: true }),
};
