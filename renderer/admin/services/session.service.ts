import type { SessionStatus } from '../../../server/contract/session.contract.js';
import { api } from '../../shared/http.js';

export const sessionService = {
  status: () => api.get<SessionStatus>('/api/admin/session', { expectUnauthorized: true }),
  signIn: (pin: string) => api.post<void>('/api/admin/session', { pin }, { expectUnauthorized: true }),
  signOut: () => api.delete<void>('/api/admin/session', { expectUnauthorized: true }),
  setInitialPin: (pin: string) => api.post<void>('/api/admin/session/pin', { pin }, { expectUnauthorized: true }),
  /** The owner's PIN typed in place: the same session takes the owner's key. */
  elevate: (pin: string) => api.post<void>('/api/admin/session/elevate', { pin }, { noOwnerPrompt: true }),
  dropOwner: () => api.post<void>('/api/admin/session/drop'),
  setEventPin: (pin: string) => api.put<void>('/api/admin/session/event-pin', { pin }),
  clearEventPin: () => api.delete<void>('/api/admin/session/event-pin'),
  changeOwnerPin: (currentPin: string, newPin: string) =>
    api.put<void>('/api/admin/session/pin', { current_pin: currentPin, new_pin: newPin }),
};
