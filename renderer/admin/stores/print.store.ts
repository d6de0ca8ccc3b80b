import { defineStore } from 'pinia';
import { ref } from 'vue';
import type {
  AdminPrintJob,
  PaperSize,
  PrintCounters,
  PrinterChoice,
  PrinterStatus,
  PrintRequestResult,
} from '../../../server/contract/print.contract.js';
import type { PrintSettings } from '../../../server/contract/settings.contract.js';
import { printService, type CounterName } from '../services/print.service.js';

/** The operator's view of printing: settings, printers, the live queue and the counters. */
export const usePrintAdminStore = defineStore('printAdmin', () => {
  const jobs = ref<AdminPrintJob[]>([]);
  const printer = ref<PrinterStatus | null>(null);
  const counters = ref<PrintCounters>({ event: 0, today: 0, total: 0 });
  const printers = ref<PrinterChoice[]>([]);
  const settings = ref<PrintSettings | null>(null);
  const loaded = ref(false);
  /** The paper sizes the printer chosen in the settings declares. */
  /** `loading` until the printer's sizes are known: the page says so instead of offering only the default. */
  const papers = ref<{ printer: string | null; list: PaperSize[]; default: string | null; loading: boolean }>({
    printer: null,
    list: [],
    default: null,
    loading: true,
  });
  let papersAsked = 0;

  /*
   * The live stream and a page's reading race: an answer asked before a change may arrive after the
   * stream told it. What the stream said since a reading began wins over that reading.
   */
  let printerSaid = 0;
  let countersSaid = 0;
  /** Jobs the stream changed while a reading of the queue was under way, applied again over it. */
  let jobsSaid: Map<number, AdminPrintJob> | null = null;

  async function load(): Promise<void> {
    const seen = { printer: printerSaid, counters: countersSaid };
    const said = new Map<number, AdminPrintJob>();
    jobsSaid = said;
    try {
      const [view, list, current] = await Promise.all([printService.queue(), printService.printers(), printService.settings()]);
      jobs.value = view.jobs;
      for (const job of said.values()) jobChanged(job);
      if (printerSaid === seen.printer) printer.value = view.printer;
      if (countersSaid === seen.counters) counters.value = view.counters;
      printers.value = list.printers;
      settings.value = current;
      loaded.value = true;
    } finally {
      if (jobsSaid === said) jobsSaid = null;
    }
  }

  async function saveSettings(next: PrintSettings): Promise<void> {
    settings.value = await printService.saveSettings(next);
    // The printer choice changes what the state says.
    const seen = printerSaid;
    const view = await printService.queue();
    if (printerSaid === seen) printer.value = view.printer;
  }

  /** A job changed (live stream or an action's answer): update it in place, or add it on top. */
  function jobChanged(job: AdminPrintJob): void {
    jobsSaid?.set(job.id, job);
    const i = jobs.value.findIndex((j) => j.id === job.id);
    if (i >= 0) jobs.value[i] = job;
    else jobs.value.unshift(job);
  }

  async function cancel(id: number): Promise<void> {
    jobChanged((await printService.cancel(id)).job);
  }

  async function retry(id: number): Promise<void> {
    jobChanged((await printService.retry(id)).job);
  }

  async function clear(): Promise<number> {
    const { cleared } = await printService.clear();
    jobs.value = jobs.value.filter((j) => j.state !== 'done' && j.state !== 'cancelled');
    return cleared;
  }

  async function count(id: number): Promise<void> {
    jobChanged((await printService.count(id)).job);
  }

  async function loadPapers(printerName: string | null): Promise<void> {
    const asked = ++papersAsked;
    papers.value = { ...papers.value, loading: true };
    try {
      const answer = await printService.papers(printerName);
      if (asked === papersAsked) papers.value = { printer: printerName, list: answer.papers, default: answer.default, loading: false };
    } finally {
      if (asked === papersAsked) papers.value = { ...papers.value, loading: false };
    }
  }

  const testPage = (): Promise<PrintRequestResult> => printService.testPage();

  async function resetCounter(counter: CounterName): Promise<void> {
    counters.value = (await printService.resetCounter(counter)).counters;
  }

  return {
    jobs,
    printer,
    counters,
    printers,
    settings,
    loaded,
    load,
    saveSettings,
    jobChanged,
    cancel,
    retry,
    count,
    papers,
    loadPapers,
    testPage,
    clear,
    resetCounter,
    printerChanged: (s: PrinterStatus) => {
      printerSaid++;
      printer.value = s;
    },
    countersChanged: (c: PrintCounters) => {
      countersSaid++;
      counters.value = c;
    },
  };
});
