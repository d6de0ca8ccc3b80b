import type { DashboardStatus, LogLevel, LogsResponse, MaintenanceResult } from '../../../server/contract/dashboard.contract.js';
import type { Settings } from '../../../server/contract/settings.contract.js';
import type { NotKeptField } from '../../../server/contract/actions.contract.js';
import { api } from '../../shared/http.js';
import { startDownload } from '../../shared/composables/useDownload.js';

export type MaintenanceButton = 'restart-capture-app' | 'restart-boothdeck' | 'reboot';

export interface RestoreAnswer {
  /** `not_kept`: values the capture app did not keep, read back after the writes. */
  restored: { actions: number; presets: number; not_kept?: NotKeptField[] };
}

/** A settings change: a part of the settings, nested. */
export type SettingsPatch = { [K in keyof Settings]?: Partial<Settings[K]> };

export const dashboardService = {
  status: () => api.get<DashboardStatus>('/api/admin/dashboard/status'),
  logs: (level: LogLevel, limit = 200) => api.get<LogsResponse>(`/api/admin/logs?level=${level}&limit=${limit}`),
  run: (button: MaintenanceButton) => api.post<MaintenanceResult>(`/api/admin/system/${button}`),
  settings: () => api.get<Settings>('/api/admin/settings'),
  saveSettings: (patch: SettingsPatch) => api.put<Settings>('/api/admin/settings', patch),
  downloadBackup: () => startDownload('/api/admin/backup'),
  restoreBackup: (backup: unknown) => api.post<RestoreAnswer>('/api/admin/backup', backup),
};
