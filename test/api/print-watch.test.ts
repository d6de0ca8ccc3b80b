import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPrintJob, PrinterGlance } from '../../server/contract/print.contract.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import {
  adminRequest,
  guestCookie,
  guestPrint,
  guestPrintSession,
  jobReaches,
  printerPause,
  savePrintSettings,
  eventWithPhotos,
} from '../support/print.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

/** The watched printer's pause reaching `pause` (at once when it already has). */
const pauseReaches = async (pause: string | null): Promise<void> => {
  const heard = printerPause(t.services.hub, pause);
  if (t.services.printWorker.printerStatus().pause !== pause) await heard;
};

/** The printer watched all the time, no-printer refusals, the quota per address, honest settlement. */
let t: SimApp;
let printer: FakePrinter;
beforeEach(async () => {
  printer = new FakePrinter();
  // Someone watches throughout (a console open): the watch at rest is printer-watch-rest.test.ts's.
  t = await startSimApp({ printer, print: { watchAttentive: () => true } });
});
afterEach(async () => {
  await t.close();
});

const jobOf = (id: number) => (): AdminPrintJob | undefined => t.services.print.job(id);
const sessionRows = (): number => (t.db.prepare('SELECT COUNT(*) AS n FROM guest_sessions').get() as { n: number }).n;
const jobRows = (): number => (t.db.prepare('SELECT COUNT(*) AS n FROM print_jobs').get() as { n: number }).n;

describe('the watched printer', () => {
  it('reports a printer paused with an empty queue to the console and to guests, and its return', async () => {
    const cookie = await guestCookie(t.app);
    const guestHeard: unknown[] = [];
    t.services.hub.subscribe('gallery', (m) => {
      if (m.event === 'print-status') guestHeard.push(m.data.paused);
    });
    t.services.printWorker.start();
    await printerPause(t.services.hub, null);
    printer.setState('Photo', 'stopped', ['paused'], 'Paused');
    await printerPause(t.services.hub, 'stopped');
    expect(guestHeard).toContain('stopped');
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ paused: 'stopped' });
    const glance = (await adminRequest(t, 'get', '/print/glance')).body as PrinterGlance;
    expect(glance).toMatchObject({ printer: { name: 'Photo', state: 'stopped', pause: 'stopped' }, queued: 0 });
    printer.setState('Photo', 'idle');
    await printerPause(t.services.hub, null);
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ paused: null });
  });

  it('reports supplies where the printer declares them, and nothing where it does not', async () => {
    printer.declared.Photo = { papers: ['A6'], defaultPaper: 'A6', supplies: [{ name: 'Ribbon', level: 12, type: 'ribbon-wax' }] };
    t.services.printWorker.start();
    await printerPause(t.services.hub, null);
    expect(((await adminRequest(t, 'get', '/print/glance')).body as PrinterGlance).printer.supplies).toEqual([
      { name: 'Ribbon', level: 12, type: 'ribbon-wax' },
    ]);
    const cookie = await guestCookie(t.app);
    expect((await guestPrintSession(t.app, cookie)).paper).toEqual({ name: 'A6', width_mm: 105, height_mm: 148 });
  });

  it('refuses prints while no printer can be chosen, instead of calling them sent', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.printers = [
      { name: 'Selphy', state: 'idle', reasons: [], message: '', isDefault: false },
      { name: 'DNP', state: 'idle', reasons: [], message: '', isDefault: false },
    ];
    t.services.printWorker.start();
    await printerPause(t.services.hub, 'no_printer');
    const cookie = await guestCookie(t.app);
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ paused: 'no_printer' });
    const guest = await guestPrint(t.app, cookie, photo!.id, { copies: 1 });
    expect(guest.status).toBe(503);
    expect(guest.body.error.code).toBe('print_unavailable');
    const operator = await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 2 });
    expect(operator.status).toBe(409);
    expect(operator.body.error).toMatchObject({ code: 'no_printer' });
    expect(operator.body.error.message).toMatch(/choose one on the Printing page/);
    expect(jobRows()).toBe(0);

    await savePrintSettings(t, { printer: 'DNP' });
    await pauseReaches(null);
    const sent = await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 2 });
    expect(sent.status).toBe(201);
    expect(sent.body.printer_pause).toBeNull();
  });

  it('tells the operator that a print will wait at a paused printer', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.setState('Photo', 'stopped', ['paused'], '');
    const res = await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 1 });
    expect(res.status).toBe(201);
    expect(res.body.printer_pause).toBe('stopped');
  });
});

describe('the quota that holds', () => {
  it('refuses a print without a gallery session and keeps no row for it', async () => {
    const [photo] = await eventWithPhotos(t);
    for (let i = 0; i < 20; i++) {
      const res = await guestPrint(t.app, undefined, photo!.id, { copies: 1 });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('session_required');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(sessionRows()).toBe(0);
    expect(jobRows()).toBe(0);
  });

  it('bounds the copies of one address however many sessions it collects', async () => {
    const [photo] = await eventWithPhotos(t);
    await savePrintSettings(t, { quota: 3, max_copies: 3, sessions_per_address: 2 });
    let printed = 0;
    // Cleared cookies or a private tab: a fresh session each time, from the same address.
    for (let i = 0; i < 6; i++) {
      const cookie = await guestCookie(t.app);
      const res = await guestPrint(t.app, cookie, photo!.id, { copies: 3 });
      if (res.status === 201) printed += 3;
      else {
        expect(res.status).toBe(429);
        expect(res.body.error.details).toMatchObject({ remaining: 0, scope: 'address' });
      }
    }
    expect(printed).toBe(6);
    const fresh = await guestCookie(t.app);
    // A fresh session on that phone is told which limit it met: the phone's, not its own.
    expect(await guestPrintSession(t.app, fresh)).toMatchObject({ used: 0, remaining: 0, limited_by: 'address' });
    expect(sessionRows()).toBe(2);
  });

  it('hands one address a bounded number of sessions', async () => {
    let issued = 0;
    for (let i = 0; i < 30; i++) {
      const res = await request(t.app).get('/api/gallery/session');
      if (res.headers['set-cookie']) issued++;
      expect(res.status).toBe(200);
    }
    expect(issued).toBe(20);
  });
});

describe('honest settlement', () => {
  it('leaves a job CUPS forgot as unknown, counted only when a person says so', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.hold = true;
    t.services.printWorker.start();
    const id = (await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 2 })).body.job.id as number;
    await new Promise<void>((resolve) => {
      const off = t.services.hub.subscribe('admin', (m) => {
        if (m.event === 'print-job' && m.data.id === id && m.data.cups_job_id) {
          off();
          resolve();
        }
      });
    });
    const cupsId = t.services.print.job(id).cups_job_id ?? '';
    printer.forget(cupsId);
    const unknown = await jobReaches(t.services.hub, id, 'failed', jobOf(id));
    expect(unknown.error).toBe('unknown_outcome');
    expect(t.services.photoRepository.find(photo!.id)?.printed_copies).toBe(0);
    expect(((await adminRequest(t, 'get', '/print/glance')).body as PrinterGlance).unknown).toBe(1);

    const counted = await adminRequest(t, 'post', `/print/jobs/${id}/count`);
    expect(counted.status).toBe(200);
    expect(counted.body.job.state).toBe('done');
    expect(t.services.photoRepository.find(photo!.id)?.printed_copies).toBe(2);
    expect((await adminRequest(t, 'post', `/print/jobs/${id}/count`)).status).toBe(409);
  });
});

describe('paper and layout', () => {
  it('sends the chosen paper, layout and the photo’s orientation to the printer, and prints a test page', async () => {
    await eventWithPhotos(t, 2);
    await savePrintSettings(t, { paper: 'A6', layout: 'fit' });
    t.services.printWorker.start();
    const res = await adminRequest(t, 'post', '/print/test-page');
    expect(res.status).toBe(201);
    expect(res.body.job.copies).toBe(1);
    await jobReaches(t.services.hub, res.body.job.id as number, 'done', jobOf(res.body.job.id as number));
    expect(printer.jobs[0]?.options).toMatchObject({ paper: 'A6', layout: 'fit', copies: 1 });
    // The simulator's photos are landscape: turned onto portrait A6, left as they are on landscape 6×4 in.
    expect(printer.jobs[0]?.options.orientation).toBe('landscape');
    await savePrintSettings(t, { paper: 'w432h288' });
    const wide = (await adminRequest(t, 'post', '/print/test-page')).body.job.id as number;
    await jobReaches(t.services.hub, wide, 'done', jobOf(wide));
    expect(printer.jobs[1]?.options).toMatchObject({ paper: 'w432h288', orientation: 'portrait' });
    const papers = await adminRequest(t, 'get', '/print/papers?printer=Photo');
    expect(papers.body).toEqual({
      papers: [
        { name: 'w288h432', width_mm: 101.6, height_mm: 152.4 },
        { name: 'A5', width_mm: 148, height_mm: 210 },
        { name: 'A6', width_mm: 105, height_mm: 148 },
      ],
      default: 'w288h432',
    });
    expect((await adminRequest(t, 'get', '/print/papers?printer=a;b')).status).toBe(400);
  });

  it('refuses a test page when there is no photo', async () => {
    const res = await adminRequest(t, 'post', '/print/test-page');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('no_photo');
  });
});
