import type {
  EventPublication,
  PublishOverview,
  PublishSettings,
  PublishSettingsResponse,
  PublishTestResult,
} from '../../../server/contract/publish.contract.js';
import { api } from '../../shared/http.js';

const event = (slug: string): string => `/api/admin/publish/events/${encodeURIComponent(slug)}`;

export const publishService = {
  overview: () => api.get<PublishOverview>('/api/admin/publish'),
  settings: () => api.get<PublishSettingsResponse>('/api/admin/publish/settings'),
  save: (patch: Partial<PublishSettings>) => api.put<PublishSettingsResponse>('/api/admin/publish/settings', patch),
  test: () => api.post<PublishTestResult>('/api/admin/publish/test'),
  publish: (slug: string) => api.post<{ publication: EventPublication }>(event(slug)),
  withdraw: (slug: string) => api.delete<{ publication: EventPublication }>(event(slug)),
  companyIndexUrl: () => '/api/admin/publish/company-index.html',
};
