import { defineStore } from 'pinia';
import { systemService, type AdminStreamHandlers } from '../services/system.service.js';

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

  return { subscribe };
});
