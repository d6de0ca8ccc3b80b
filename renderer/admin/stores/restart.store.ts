import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { RestartStatus } from '../../../server/contract/system.contract.js';
import { systemService } from '../services/system.service.js';
import { useAdminStreamStore } from './stream.store.js';

/** Where the "apply to the capture app" chain stands, live from the console's stream. */
export const useRestartStore = defineStore('restart', () => {
  const status = ref<RestartStatus | null>(null);
  /** The capture app is being restarted or its screen refreshed: its being down is expected, not a fault. */
  const underWay = computed(() => ['pending', 'waiting', 'restarting', 'refreshing'].includes(status.value?.state ?? ''));
  let unsubscribe: (() => void) | undefined;
  let users = 0;

  function connect(): void {
    users++;
    unsubscribe ??= useAdminStreamStore().subscribe({ restart: (s) => (status.value = s) });
  }

  function disconnect(): void {
    users = Math.max(0, users - 1);
    if (users === 0 && unsubscribe) {
      unsubscribe();
      unsubscribe = undefined;
    }
  }

  async function retry(): Promise<void> {
    status.value = await systemService.requestRestart();
  }

  /** The operator cuts short the wait for a guest's job. */
  async function restartNow(): Promise<void> {
    status.value = await systemService.restartNow();
  }

  return { status, underWay, connect, disconnect, retry, restartNow };
});
