import type {
  DestinationInput,
  EventPublication,
  PublishOverview,
  PublishSettingsPatch,
  PublishSettingsResponse,
  PublishTestResult,
} from '../../../server/contract/publish.contract.js';
import { api } from '../../shared/http.js';

const event = (slug: string): string => `/api/admin/publish/events/${encodeURIComponent(slug)}`;

export const publishService = {
  overview: () => api.get<PublishOverview>('/api/admin/publish'),
  settings: () => api.get<PublishSettingsResponse>('/api/admin/publish/settings'),
  save: (patch: PublishSettingsPatch) => api.put<PublishSettingsResponse>('/api/admin/publish/settings', patch),
  /** Tests the destination given (typed, not saved yet), or the saved one. */
  test: (destination?: DestinationInput) =>
    api.post<PublishTestResult>('/api/admin/publish/test', destination === undefined ? {} : { destination }),
  publish: (slug: string) => api.post<{ publication: EventPublication }>(event(slug)),
  withdraw: (slug: string) => api.delete<{ publication: EventPublication }>(event(slug)),
  /** The day the event leaves the remote (YYYY-MM-DD), or null for none. */
  setExpiry: (slug: string, expiresOn: string | null) => api.put<{ publication: EventPublication }>(event(slug), { expires_on: expiresOn }),
  /** The event's gallery password (write-only); null removes it. */
  setPassword: (slug: string, password: string | null) => api.put<{ publication: EventPublication }>(event(slug), { password }),
  /** The published pages' logo, as base64 (PNG, JPEG or WebP, 256 KB at most). */
  setLogo: (data: string) => api.put<PublishSettingsResponse>('/api/admin/publish/logo', { data }),
  clearLogo: () => api.delete<PublishSettingsResponse>('/api/admin/publish/logo'),
  forgetLeftover: (id: number) => api.delete<void>(`/api/admin/publish/leftovers/${id}`),
  companyIndexUrl: () => '/api/admin/publish/company-index.html',
};
