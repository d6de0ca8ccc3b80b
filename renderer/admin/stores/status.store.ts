import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ServiceStatus } from '../../../server/contract/status.contract.js';
import { statusService } from '../services/status.service.js';
import { describeError } from '../../shared/error-text.js';
import { useConnectionStore } from './connection.store.js';

export const useStatusStore = defineStore('status', () => {
  const status = ref<ServiceStatus | null>(null);
  const error = ref<string | null>(null);

  async function load(): Promise<void> {
    try {
      status.value = await statusService.get();
      error.value = null;
    } catch (err) {
      error.value = describeError(err, { reading: true });
      // Boothdeck gone: the home cards say "unknown" now, not at the connection's next round.
      useConnectionStore().report(err);
    }
  }

  return { status, error, load };
});
