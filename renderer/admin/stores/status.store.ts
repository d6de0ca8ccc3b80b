import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ServiceStatus } from '../../../server/contract/status.contract.js';
import { statusService } from '../services/status.service.js';

export const useStatusStore = defineStore('status', () => {
  const status = ref<ServiceStatus | null>(null);
  const error = ref<string | null>(null);

  async function load(): Promise<void> {
    try {
      status.value = await statusService.get();
      error.value = null;
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    }
  }

  return { status, error, load };
});
