import type { ServiceStatus } from '../../../server/contract/status.contract.js';
import { api } from '../../shared/http.js';

export const statusService = {
  get: () => api.get<ServiceStatus>('/api/admin/status'),
};
