import { watch } from 'vue';
import { useConnectionStore } from '../stores/connection.store.js';

/**
 * Reloads a page's data by itself when what it could not read becomes readable again: the
 * capture app is back, Boothdeck answers again, a capture-app restart ended, or Retry was pressed.
 */
export function useRecovery(reload: () => Promise<void> | void, failed: () => boolean): void {
  const connection = useConnectionStore();
  watch(
    () => connection.recovered,
    () => {
      if (failed()) void reload();
    },
  );
}
