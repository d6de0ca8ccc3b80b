import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { NotKeptField, PresetSummary } from '../../../server/contract/actions.contract.js';
import { actionsService } from '../services/actions.service.js';
import { useActionsStore } from './actions.store.js';

export const usePresetsStore = defineStore('presets', () => {
  const presets = ref<PresetSummary[]>([]);

  async function load(): Promise<void> {
    presets.value = (await actionsService.presets()).presets;
  }

  async function save(name: string, description: string): Promise<void> {
    await actionsService.savePreset(name, description);
    await load();
  }

  /** Answers the values the capture app did not keep, read back after the write. */
  async function restore(id: number): Promise<NotKeptField[]> {
    const res = await actionsService.restorePreset(id);
    useActionsStore().replace(res.actions, res.version);
    return res.not_kept ?? [];
  }

  async function remove(id: number): Promise<void> {
    await actionsService.deletePreset(id);
    await load();
  }

  return { presets, load, save, restore, remove };
});
