import type { OnlineLink } from '../../../server/contract/publish.contract.js';
import { api } from '../../shared/http.js';

export const onlineService = {
  link: () => api.get<OnlineLink>('/api/gallery/online'),
  /** One photo's own page online, once it is there. */
  photoLink: (id: string) => api.get<OnlineLink>(`/api/gallery/online/photos/${encodeURIComponent(id)}`),
};
