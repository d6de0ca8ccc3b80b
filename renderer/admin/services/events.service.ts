import type { BoothEvent, EventsResponse, ExportProgress } from '../../../server/contract/events.contract.js';
import type { AdminPhoto, GalleryLink, PhotoPage } from '../../../server/contract/photos.contract.js';
import { api } from '../../shared/http.js';

export interface PhotoFilters {
  event: string;
  from: string;
  to: string;
  status: 'all' | 'printed' | 'not_printed';
}

export const eventsService = {
  list: () => api.get<EventsResponse>('/api/admin/events'),
  create: (name: string, slug: string | undefined, welcome = '') =>
    api.post<{ event: BoothEvent }>('/api/admin/events', { name, ...(slug ? { slug } : {}), ...(welcome ? { welcome } : {}) }),
  reopen: (slug: string) => api.post<{ event: BoothEvent }>(`/api/admin/events/${encodeURIComponent(slug)}/reopen`, {}),
  exportUrl: (slug: string, token: string) =>
    `/api/admin/events/${encodeURIComponent(slug)}/export.zip?progress=${encodeURIComponent(token)}`,
  exportProgress: (slug: string, token: string) =>
    api.get<ExportProgress>(`/api/admin/events/${encodeURIComponent(slug)}/export/progress/${encodeURIComponent(token)}`),
  galleryLink: () => api.get<GalleryLink>('/api/admin/gallery-link'),
};

export const photosService = {
  list(filters: PhotoFilters, cursor: string | null, limit = 60): Promise<PhotoPage<AdminPhoto>> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (filters.event) query.set('event', filters.event);
    if (filters.from) query.set('from', filters.from);
    if (filters.to) query.set('to', filters.to);
    if (filters.status !== 'all') query.set('status', filters.status);
    if (cursor) query.set('cursor', cursor);
    return api.get<PhotoPage<AdminPhoto>>(`/api/admin/photos?${query.toString()}`);
  },
  remove: (id: string) => api.delete<void>(`/api/admin/photos/${encodeURIComponent(id)}`),
};
