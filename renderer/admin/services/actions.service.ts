import type { ActionKind, ActionResponse, ActionsResponse, PresetSummary, UserFile } from '../../../server/contract/actions.contract.js';
import { api } from '../../shared/http.js';

const BASE = '/api/admin/actions';
const ifMatch = (version: string | undefined) => (version ? { headers: { 'If-Match': `"${version}"` } } : {});

export type ActionChanges = Record<string, unknown>;

export const actionsService = {
  list: () => api.get<ActionsResponse>(BASE),
  create: (kind: ActionKind, name: string) => api.post<ActionResponse>(`${BASE}/create`, { general: { kind, name } }),
  clone: (index: number, version?: string) => api.post<ActionResponse>(`${BASE}/${index}/clone`, undefined, ifMatch(version)),
  remove: (index: number, version?: string) => api.delete<ActionsResponse>(`${BASE}/${index}`, ifMatch(version)),
  reorder: (order: number[], version?: string) => api.put<ActionsResponse>(`${BASE}/reorder`, { order }, ifMatch(version)),
  update: (index: number, changes: ActionChanges, version?: string) =>
    api.put<ActionResponse>(`${BASE}/${index}`, changes, ifMatch(version)),
  presets: () => api.get<{ presets: PresetSummary[] }>(`${BASE}/presets`),
  savePreset: (name: string, description: string) => api.post<{ preset: PresetSummary }>(`${BASE}/presets`, { name, description }),
  restorePreset: (id: number) => api.post<ActionsResponse>(`${BASE}/presets/${id}/restore`),
  deletePreset: (id: number) => api.delete<void>(`${BASE}/presets/${id}`),
  userFiles: () => api.get<{ files: UserFile[] }>('/api/admin/userfiles'),
};
