import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PrinterGlance, PrinterResumeResult } from '../../../server/contract/print.contract.js';
import { printService } from '../services/print.service.js';
import { useAdminStreamStore } from './stream.store.js';

/**
 * The watched printer and the queue's counts, live, for whatever shows them (the home screen's
 * glance, the operator's print dialog). Listening starts with the first user and ends with the last.
 */
export const usePrinterGlanceStore = defineStore('printerGlance', () => {
  const glance = ref<PrinterGlance | null>(null);
  let users = 0;
  let unsubscribe: (() => void) | undefined;
  let reloading: Promise<void> | undefined;
  /** True while "Reprendre l'impression" waits for CUPS's answer (a few seconds at most). */
  const resuming = ref(false);

  /** Resumes the queue CUPS stopped; the answer says whether the printer is really ready. */
  async function resume(): Promise<PrinterResumeResult> {
    resuming.value = true;
    try {
      const result = await printService.resumePrinter();
      if (glance.value) glance.value = { ...glance.value, printer: result.printer };
      return result;
    } finally {
      resuming.value = false;
    }
  }

  /** Printer states the stream gave: one given after a reading began wins over that reading's. */
  let printerSaid = 0;

  function reload(): Promise<void> {
    const seen = printerSaid;
    reloading ??= printService
      .glance()
      .then((g) => {
        const said = glance.value?.printer;
        glance.value = printerSaid !== seen && said ? { ...g, printer: said } : g;
      })
      .catch(() => undefined)
      .finally(() => (reloading = undefined));
    return reloading;
  }

  function use(): () => void {
    users++;
    if (users === 1) {
      unsubscribe = useAdminStreamStore().subscribe({
        printPrinter: (status) => {
          printerSaid++;
          if (glance.value) glance.value = { ...glance.value, printer: status };
          else void reload();
        },
        // A job moved: the counts changed (the server answers from SQLite, without CUPS).
        printJob: () => void reload(),
        open: () => void reload(),
      });
      void reload();
    }
    return () => {
      users--;
      if (users === 0) unsubscribe?.();
    };
  }

  return { glance, use, reload, resuming, resume };
});
