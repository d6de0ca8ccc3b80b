import { defineStore } from 'pinia';
import { watch } from 'vue';
import { systemService, type AdminStreamHandlers } from '../services/system.service.js';
import { useConnectionStore } from './connection.store.js';

/** One live stream for the whole console, shared by every page that listens. */
export const useAdminStreamStore = defineStore('adminStream', () => {
  const subscribers = new Set<AdminStreamHandlers>();
  let close: (() => void) | undefined;

  const fanOut: AdminStreamHandlers = {
    restart: (s) => subscribers.forEach((h) => h.restart?.(s)),
    photoAdded: (p) => subscribers.forEach((h) => h.photoAdded?.(p)),
    photoUpdated: (p) => subscribers.forEach((h) => h.photoUpdated?.(p)),
    photoRemoved: (id) => subscribers.forEach((h) => h.photoRemoved?.(id)),
    event: () => subscribers.forEach((h) => h.event?.()),
    printJob: (j) => subscribers.forEach((h) => h.printJob?.(j)),
    printPrinter: (s) => subscribers.forEach((h) => h.printPrinter?.(s)),
    printCounters: (c) => subscribers.forEach((h) => h.printCounters?.(c)),
    // (Re)connected: every listener reads its state again, whatever it missed meanwhile.
    open: () => subscribers.forEach((h) => h.open?.()),
    error: () => subscribers.forEach((h) => h.error?.()),
  };

  function subscribe(handlers: AdminStreamHandlers): () => void {
    subscribers.add(handlers);
    close ??= systemService.openStream(fanOut);
    return () => {
      subscribers.delete(handlers);
      if (subscribers.size === 0 && close) {
        close();
        close = undefined;
      }
    };
  }

  // A stream the browser gave up on (Boothdeck answered an error while it restarted) is opened
  // again once the connection is back; its "open" makes every page read its state again.
  const connection = useConnectionStore();
  watch(
    () => connection.recovered,
    () => {
      if (!close) return;
      close();
      close = systemService.openStream(fanOut);
    },
  );

  return { subscribe };
});
