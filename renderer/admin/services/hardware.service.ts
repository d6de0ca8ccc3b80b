import type { HardwareDiagnostic } from '../../../server/contract/hardware.contract.js';
import type { HardwareSettings, Settings } from '../../../server/contract/settings.contract.js';
import { api } from '../../shared/http.js';

export const hardwareService = {
  settings: async (): Promise<HardwareSettings> => (await api.get<Settings>('/api/admin/settings')).hardware,
  save: async (hardware: HardwareSettings): Promise<HardwareSettings> =>
    (await api.put<Settings>('/api/admin/settings', { hardware })).hardware,
  diagnostic: (since?: number) =>
    api.get<HardwareDiagnostic>(`/api/admin/hardware/diagnostic${since === undefined ? '' : `?since=${since}`}`),
  flashNow: () => api.post<void>('/api/admin/hardware/test/flash'),
  relayPulse: (ms = 1000) => api.post<void>('/api/admin/hardware/test/relay', { ms }),
  ledColor: (color: string) => api.post<void>('/api/admin/hardware/test/led', { color }),
  countdown: (seconds = 3) => api.post<void>('/api/admin/hardware/test/countdown', { seconds }),
};
