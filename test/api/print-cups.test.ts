import { readFileSync } from 'node:fs';
import request from 'supertest';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CupsPrinter } from '../../server/print/printer.cups.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import { CUPS_PRINTER, cupsCommand, cupsCopies, pdfOf, requireCups } from '../support/cups.js';
import { guestCookie, guestPrint, guestPrintSession, jobReaches, printerPause } from '../support/print.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

/** The whole path through a real CUPS server and its PDF printer. */
let t: SimApp;
beforeAll(() => {
  requireCups();
});
beforeEach(async () => {
  t = await startSimApp({ printer: new CupsPrinter(createExecSystem()), print: { pollMs: 100, pausePollMs: 200 } });
  await request(t.app)
    .put('/api/admin/settings')
    .set('Cookie', t.cookie)
    .send({ print: { printer: CUPS_PRINTER } });
  await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Gala' });
});
afterEach(async () => {
  cupsCommand('cupsenable');
  await t.close();
});

async function photo(): Promise<string> {
  const item = await t.sim.capture();
  await t.services.indexer.rescan();
  return item.id;
}

describe('printing through CUPS', () => {
  it('turns a guest’s request into a PDF with the copies asked', async () => {
    const id = await photo();
    t.services.printWorker.start();
    const res = await guestPrint(t.app, await guestCookie(t.app), id, { copies: 2 });
    expect(res.status).toBe(201);
    const jobId = res.body.job.id as number;
    const done = await jobReaches(t.services.hub, jobId, 'done', () => t.services.print.job(jobId));
    expect(done.cups_job_id).toMatch(/^PDF-\d+$/);
    const pdf = pdfOf(done.cups_job_id ?? '');
    expect(pdf, 'cups-pdf output').toBeDefined();
    expect(
      readFileSync(pdf ?? '')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(await cupsCopies(done.cups_job_id ?? '')).toBe(2);
    expect(t.services.photoRepository.find(id)?.printed_copies).toBe(2);
  });

  it('pauses while the CUPS queue is disabled, and prints once it is enabled again', async () => {
    const id = await photo();
    cupsCommand('cupsdisable', '-r', 'Paper out');
    t.services.printWorker.start();
    const paused = printerPause(t.services.hub, 'out_of_paper');
    const cookie = await guestCookie(t.app);
    const jobId = (await guestPrint(t.app, cookie, id, { copies: 1 })).body.job.id as number;
    await paused;
    const view = (await request(t.app).get('/api/admin/print/queue').set('Cookie', t.cookie)).body;
    expect(view.printer).toMatchObject({ name: 'PDF', state: 'stopped', message: 'Paper out', pause: 'out_of_paper' });
    expect(view.jobs[0]).toMatchObject({ id: jobId, state: 'queued', cups_job_id: null });
    expect((await guestPrintSession(t.app, cookie)).paused).toBe('out_of_paper');
    cupsCommand('cupsenable');
    const done = await jobReaches(t.services.hub, jobId, 'done', () => t.services.print.job(jobId));
    expect(pdfOf(done.cups_job_id ?? '')).toBeDefined();
  });
});
