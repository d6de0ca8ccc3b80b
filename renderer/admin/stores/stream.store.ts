import { defineStore } from 'pinia';
import { watch } from 'vue';
import { systemService, type AdminStreamHandlers } from '../services/system.service.js';
import { useConnectionStore } from './connection.store.js';

/** One live stream for the whole console, shared by every page that listens. */
export const useAdminStreamStore = defineStore('adminStream', () => {
  const connection = useConnectionStore();
  const subscribers = new Set<AdminStreamHandlers>();
  const rereaders = new Set<() => void>();
  let close: (() => void) | undefined;
  /**
   * Whether the next "open" is the stream coming back (after an error, or opened anew after a
   * recovery) rather than its first connection, which the pages' own first reads already cover.
   */
  let cut = false;

  const fanOut: AdminStreamHandlers = {
    restart: (s) => subscribers.forEach((h) => h.restart?.(s)),
    photoAdded: (p) => subscribers.forEach((h) => h.photoAdded?.(p)),
    photoUpdated: (p) => subscribers.forEach((h) => h.photoUpdated?.(p)),
    photoRemoved: (id) => subscribers.forEach((h) => h.photoRemoved?.(id)),
    event: () => subscribers.forEach((h) => h.event?.()),
    printJob: (j) => subscribers.forEach((h) => h.printJob?.(j)),
    printPrinter: (s) => subscribers.forEach((h) => h.printPrinter?.(s)),
    printCounters: (c) => subscribers.forEach((h) => h.printCounters?.(c)),
    captureJobs: (s) => subscribers.forEach((h) => h.captureJobs?.(s)),
    // (Re)connected: every listener reads its state again, whatever it missed meanwhile.
    open: () => {
      subscribers.forEach((h) => h.open?.());
      if (cut) rereaders.forEach((reread) => reread());
      cut = false;
    },
    error: () => {
      cut = true;
      // The stream is the first to notice Boothdeck gone: the console says so now, not at its next round.
      void connection.check();
      subscribers.forEach((h) => h.error?.());
    },
  };

  function open(): void {
    cut = false;
    close = systemService.openStream(fanOut);
  }

  function subscribe(handlers: AdminStreamHandlers): () => void {
    subscribers.add(handlers);
    if (!close) open();
    return () => {
      subscribers.delete(handlers);
      if (subscribers.size === 0 && close) {
        close();
        close = undefined;
      }
    };
  }

  /**
   * `reread` runs each time the stream comes back after a cut (Boothdeck stopped, restarted, or
   * the network dropped): what changed meanwhile is read, not left as it was before the cut.
   */
  function onReconnect(reread: () => void): () => void {
    const unsubscribe = subscribe({});
    rereaders.add(reread);
    return () => {
      rereaders.delete(reread);
      unsubscribe();
    };
  }

  // A stream the browser gave up on (Boothdeck answered an error while it restarted) is opened
  // again once the connection is back; its "open" makes every page read its state again.
  watch(
    () => connection.recovered,
    () => {
      if (!close) return;
      // Only a stream that was cut makes the pages read again: the capture app coming back
      // changes nothing the pages read from Boothdeck, and a form's draft must not be reset.
      const wasCut = cut;
      close();
      open();
      cut = wasCut;
    },
  );

  return { subscribe, onReconnect };
});
