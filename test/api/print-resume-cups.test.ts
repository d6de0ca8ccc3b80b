import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPrintJob, PrinterResumeResult } from '../../server/contract/print.contract.js';
import { CupsPrinter } from '../../server/print/printer.cups.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import { createQueue, FAILING_URI, pdfOf, queueCommand, queuePolicy, removeQueue, requireCups, setQueueUri } from '../support/cups.js';
import { adminRequest, eventWithPhotos, guestCookie, guestPrint, jobReaches, printerPause, savePrintSettings } from '../support/print.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

/**
 * Resuming a queue CUPS stopped, its error policy, and a printer chosen in the same moment as a
 * print, against the real CUPS server and CUPS-PDF. Each test has queues of its own (other tests
 * share `PDF`), removed at the end with their jobs.
 */
const STOPPED = `BDresume${process.pid}`;
const FAILING = `BDfail${process.pid}`;
const CHOSEN = `BDchosen${process.pid}`;
const GONE = `BDgone${process.pid}`;

let t: SimApp;
beforeAll(() => {
  requireCups();
  createQueue(STOPPED);
  createQueue(FAILING, FAILING_URI);
  createQueue(CHOSEN);
});
afterAll(() => {
  for (const q of [STOPPED, FAILING, CHOSEN]) removeQueue(q);
});
beforeEach(async () => {
  t = await startSimApp({ printer: new CupsPrinter(createExecSystem()), print: { pollMs: 100, pausePollMs: 200, watchMs: 500 } });
});
afterEach(async () => {
  await t.close();
});

const resume = async (): Promise<PrinterResumeResult> => {
  const res = await adminRequest(t, 'post', '/print/printer/resume');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as PrinterResumeResult;
};

/** `n` guest prints of one photo, one copy each; their job ids in the order sent. */
async function guestPrints(photoId: string, n: number): Promise<number[]> {
  const cookie = await guestCookie(t.app);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await guestPrint(t.app, cookie, photoId, { copies: 1 });
    expect(res.status).toBe(201);
    ids.push(res.body.job.id as number);
  }
  return ids;
}

/** Every job printed once, in the order sent: one CUPS job each, ids and completion in order, a PDF each. */
async function printedInOrder(ids: number[]): Promise<AdminPrintJob[]> {
  const done: AdminPrintJob[] = [];
  for (const id of ids) done.push(await jobReaches(t.services.hub, id, 'done', () => t.services.print.job(id)));
  const cupsIds = done.map((j) => Number(j.cups_job_id?.split('-').pop()));
  expect(new Set(cupsIds).size).toBe(ids.length);
  expect([...cupsIds].sort((a, b) => a - b)).toEqual(cupsIds);
  const finished = done.map((j) => Date.parse(j.finished_at ?? ''));
  expect([...finished].sort((a, b) => a - b)).toEqual(finished);
  for (const job of done) await expect.poll(() => pdfOf(job.cups_job_id ?? ''), { timeout: 10_000 }).toBeDefined();
  return done;
}

describe('Reprendre l’impression, with the real CUPS', { timeout: 60_000 }, () => {
  it('resumes a queue stopped with cupsdisable, and the waiting jobs print once each, in order', async () => {
    await savePrintSettings(t, { printer: STOPPED });
    const [photo] = await eventWithPhotos(t);
    queueCommand('cupsdisable', STOPPED);
    t.services.printWorker.start();
    await t.services.printWorker.refreshPrinter();
    expect(t.services.printWorker.printerStatus()).toMatchObject({ name: STOPPED, state: 'stopped', pause: 'stopped' });
    const ids = await guestPrints(photo!.id, 3);
    expect(ids.map((id) => t.services.print.job(id).state)).toEqual(['queued', 'queued', 'queued']);

    const answer = await resume();
    expect(answer).toMatchObject({ outcome: 'resumed', printer: { name: STOPPED, pause: null, accepting: true } });
    await printedInOrder(ids);
  });

  it('resumes a queue that refuses jobs (cupsreject)', async () => {
    await savePrintSettings(t, { printer: STOPPED });
    queueCommand('cupsreject', STOPPED);
    await t.services.printWorker.refreshPrinter();
    expect(t.services.printWorker.printerStatus()).toMatchObject({ accepting: false, pause: 'stopped' });
    expect((await resume()).outcome).toBe('resumed');
    expect(t.services.printWorker.printerStatus()).toMatchObject({ accepting: true, pause: null });
  });

  it('resumes a queue CUPS stopped by its own policy when a job failed; says so while it still fails', async () => {
    await savePrintSettings(t, { printer: FAILING, error_policy: 'stop-printer' });
    expect(await queuePolicy(FAILING)).toBe('stop-printer');
    const [photo] = await eventWithPhotos(t);
    const stopped = printerPause(t.services.hub, 'stopped');
    t.services.printWorker.start();
    const [first] = await guestPrints(photo!.id, 1);
    await stopped;
    // The failed job waits in CUPS (stop-printer keeps it); the next ones wait in Boothdeck's queue.
    const inCups = await jobReaches(t.services.hub, first!, 'printing', () => t.services.print.job(first!));
    expect(inCups.cups_job_id).toMatch(new RegExp(`^${FAILING}-\\d+$`));
    const ids = [first!, ...(await guestPrints(photo!.id, 2))];

    // Resumed while the printer still fails: CUPS stops it again, and the answer says so.
    const again = await resume();
    expect(again).toMatchObject({ outcome: 'still_paused', printer: { name: FAILING, pause: 'stopped' } });
    expect(ids.map((id) => t.services.print.job(id).state)).toEqual(['printing', 'queued', 'queued']);

    // The printer works again: resumed, the job in CUPS goes on (not sent again), then the others.
    setQueueUri(FAILING, 'cups-pdf:/');
    expect((await resume()).outcome).toBe('resumed');
    const done = await printedInOrder(ids);
    expect(done[0]!.cups_job_id).toBe(inCups.cups_job_id);
    setQueueUri(FAILING, FAILING_URI);
  });

  it('sets the error policy both ways on the queue in use, and CUPS reports it back', async () => {
    await savePrintSettings(t, { printer: CHOSEN });
    expect(await queuePolicy(CHOSEN)).toBe('retry-current-job');
    await savePrintSettings(t, { error_policy: 'stop-printer' });
    expect(await queuePolicy(CHOSEN)).toBe('stop-printer');
    await savePrintSettings(t, { error_policy: 'retry-current-job' });
    expect(await queuePolicy(CHOSEN)).toBe('retry-current-job');
    expect(t.services.printWorker.printerStatus()).toMatchObject({ name: CHOSEN, error_policy: 'retry-current-job' });
  });
});

describe('a printer chosen in the same moment as a print', { timeout: 60_000 }, () => {
  it('takes the print: 201, never 503', async () => {
    const [photo] = await eventWithPhotos(t);
    await savePrintSettings(t, { quota: 20 });
    const cookie = await guestCookie(t.app);
    t.services.printWorker.start();
    for (let i = 0; i < 5; i++) {
      // A printer CUPS does not know: nothing can print.
      await savePrintSettings(t, { printer: GONE });
      expect(t.services.printWorker.printerStatus().pause).toBe('no_printer');
      const [saved, printed] = await Promise.all([
        adminRequest(t, 'put', '/settings').send({ print: { printer: CHOSEN } }),
        guestPrint(t.app, cookie, photo!.id, { copies: 1 }),
      ]);
      expect(saved.status).toBe(200);
      expect(printed.status, JSON.stringify(printed.body)).toBe(201);
    }
  });
});
