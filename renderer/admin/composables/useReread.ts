import { onBeforeUnmount, onMounted } from 'vue';
import { useAdminStreamStore } from '../stores/stream.store.js';

/**
 * Reads a page's state again whenever the console's live stream comes back after a cut
 * (Boothdeck stopped or restarted, the network dropped): the page then shows what changed
 * meanwhile, not what it showed before. A failed read is the page's own to report; here it waits
 * for the next reconnection or the page's next read.
 */
export function useReread(reread: () => unknown): void {
  let stop: (() => void) | undefined;
  onMounted(() => {
    stop = useAdminStreamStore().onReconnect(() => {
      void Promise.resolve()
        .then(reread)
        .catch(() => undefined);
    });
  });
  onBeforeUnmount(() => stop?.());
}
