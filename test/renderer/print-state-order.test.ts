// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AdminPrintJob,
  GuestPrintSession,
  PrinterGlance,
  PrinterStatus,
  PrintQueueView,
} from '../../server/contract/print.contract.js';
import type { PrintSettings } from '../../server/contract/settings.contract.js';
import { printService as adminPrint } from '../../renderer/admin/services/print.service.js';
import { usePrintAdminStore } from '../../renderer/admin/stores/print.store.js';
import { usePrinterGlanceStore } from '../../renderer/admin/stores/printer-glance.store.js';
import { printService as guestPrint } from '../../renderer/gallery/services/print.service.js';
import { usePrintStore } from '../../renderer/gallery/stores/print.store.js';
import { guestSession } from '../support/guest-print-session.js';

vi.mock('../../renderer/admin/services/print.service.js', () => ({
  printService: { queue: vi.fn(), printers: vi.fn(), settings: vi.fn(), glance: vi.fn() },
}));
vi.mock('../../renderer/gallery/services/print.service.js', () => ({
  printService: { session: vi.fn(), print: vi.fn(), job: vi.fn() },
}));
vi.mock('../../renderer/admin/stores/stream.store.js', () => ({
  useAdminStreamStore: () => ({ subscribe: (h: Record<string, unknown>) => ((handlers = h), () => undefined) }),
}));
let handlers: Record<string, unknown> = {};

/** An answer the test lets arrive when it chooses. */
function later<T>(): { promise: Promise<T>; arrive: (value: T) => void } {
  let arrive: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (arrive = resolve));
  return { promise, arrive };
}

const status = (state: PrinterStatus['state'], pause: PrinterStatus['pause']): PrinterStatus => ({
  name: 'Photo',
  state,
  reasons: [],
  message: '',
  pause,
  accepting: true,
  supplies: [],
  error_policy: 'retry-current-job',
});
const IDLE = status('idle', null);
const STOPPED = status('stopped', 'stopped');
const job = (id: number, state: AdminPrintJob['state']): AdminPrintJob => ({ id, state }) as AdminPrintJob;

describe('a page reading the printer while the live stream tells a change', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(adminPrint.printers).mockResolvedValue({ printers: [] });
    vi.mocked(adminPrint.settings).mockResolvedValue({} as PrintSettings);
  });

  it('the Impression page keeps the stop the stream told, and the jobs it moved, over an older answer', async () => {
    const store = usePrintAdminStore();
    const answer = later<PrintQueueView>();
    vi.mocked(adminPrint.queue).mockReturnValueOnce(answer.promise);
    const loading = store.load();
    store.printerChanged(STOPPED);
    store.jobChanged(job(7, 'done'));
    answer.arrive({ jobs: [job(7, 'printing'), job(6, 'done')], printer: IDLE, counters: { event: 0, today: 0, total: 0 } });
    await loading;
    expect(store.printer?.state).toBe('stopped');
    expect(store.jobs.map((j) => [j.id, j.state])).toEqual([
      [7, 'done'],
      [6, 'done'],
    ]);

    // With nothing told meanwhile, the answer is the news.
    vi.mocked(adminPrint.queue).mockResolvedValueOnce({ jobs: [], printer: IDLE, counters: { event: 0, today: 0, total: 0 } });
    await store.load();
    expect(store.printer?.state).toBe('idle');
  });

  it('the home screen’s printer card keeps the stop the stream told over an older glance', async () => {
    const store = usePrinterGlanceStore();
    const first = later<PrinterGlance>();
    vi.mocked(adminPrint.glance).mockReturnValueOnce(first.promise);
    store.use();
    first.arrive({ printer: IDLE, queued: 0, printing: 0, failed: 0, unknown: 0 });
    await store.reload();
    const second = later<PrinterGlance>();
    vi.mocked(adminPrint.glance).mockReturnValueOnce(second.promise);
    const reloading = store.reload();
    (handlers.printPrinter as (s: PrinterStatus) => void)(STOPPED);
    second.arrive({ printer: IDLE, queued: 2, printing: 0, failed: 0, unknown: 0 });
    await reloading;
    expect([store.glance?.printer.state, store.glance?.queued]).toEqual(['stopped', 2]);
  });

  it('a guest’s print sheet keeps the pause the stream told over an older session', async () => {
    const store = usePrintStore();
    const answer = later<GuestPrintSession>();
    vi.mocked(guestPrint.session).mockReturnValueOnce(answer.promise);
    const loading = store.load();
    store.statusChanged('out_of_paper');
    answer.arrive(guestSession());
    await loading;
    expect(store.paused).toBe('out_of_paper');
  });
});
