import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPrintJob, PrintQueueView } from '../../server/contract/print.contract.js';
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
import { guestSession } from '../support/guest-print-session.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp;
let printer: FakePrinter;
beforeEach(async () => {
  printer = new FakePrinter();
  t = await startSimApp({ printer });
});
afterEach(async () => {
  await t.close();
});

const queue = async (): Promise<PrintQueueView> => (await adminRequest(t, 'get', '/print/queue')).body as PrintQueueView;
const jobOf = (id: number) => (): AdminPrintJob | undefined => t.services.print.job(id);
const copiesOf = (id: string): number => t.services.photoRepository.find(id)?.printed_copies ?? -1;

describe('the guest session', () => {
  it('is a signed HttpOnly SameSite=Lax cookie issued on the first gallery visit, and kept after', async () => {
    const first = await request(t.app).get('/api/gallery/photos');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/^bd_guest=[\w-]{22}\.[\w-]+;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const value = cookie.split(';')[0] ?? '';
    const again = await request(t.app).get('/api/gallery/session').set('Cookie', value);
    expect(again.headers['set-cookie']).toBeUndefined();
    // A first visit's session, as the gallery reads it: printing on, nothing used yet.
    expect(again.body).toMatchObject(guestSession());
  });

  it('is not handed out with a thumbnail, which a first visit asks for by dozens before any cookie is set', async () => {
    const [photo] = await eventWithPhotos(t);
    const thumb = await request(t.app).get(`/api/gallery/photos/${photo!.id}/thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a forged cookie and starts a new session instead', async () => {
    const cookie = await guestCookie(t.app);
    const [id] = cookie.slice('bd_guest='.length).split('.');
    const forged = await request(t.app).get('/api/gallery/session').set('Cookie', `bd_guest=${id}.AAAA`);
    expect(String(forged.headers['set-cookie'])).not.toContain(`${id}.`);
  });
});

describe('POST /api/gallery/photos/{id}/print', () => {
  it('queues, prints through the printer port and raises the copy badge once per copy', async () => {
    t.services.printWorker.start();
    const [photo] = await eventWithPhotos(t);
    const cookie = await guestCookie(t.app);
    const res = await guestPrint(t.app, cookie, photo!.id, { copies: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ job: { photo_id: photo!.id, copies: 2, state: 'queued' }, remaining: 3 });
    const done = await jobReaches(t.services.hub, res.body.job.id as number, 'done', jobOf(res.body.job.id as number));
    expect(done.cups_job_id).toBe('Photo-1');
    expect(printer.jobs).toHaveLength(1);
    expect(printer.jobs[0]).toMatchObject({ printer: 'Photo', copies: 2 });
    expect(printer.jobs[0]?.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(copiesOf(photo!.id)).toBe(2);
    const pub = await request(t.app).get('/api/gallery/photos');
    expect(pub.body.photos[0]).toMatchObject({ id: photo!.id, printed_copies: 2 });
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ used: 2, remaining: 3 });
    expect((await queue()).counters).toEqual({ event: 2, today: 2, total: 2 });
    const own = await request(t.app).get(`/api/gallery/print/jobs/${done.id}`).set('Cookie', cookie);
    expect(own.body.job).toMatchObject({ id: done.id, state: 'done', copies: 2 });
    const other = await request(t.app)
      .get(`/api/gallery/print/jobs/${done.id}`)
      .set('Cookie', await guestCookie(t.app));
    expect(other.status).toBe(404);
  });

  it('answers 400 for copies outside 1..max_copies and queues nothing', async () => {
    const [photo] = await eventWithPhotos(t);
    const cookie = await guestCookie(t.app);
    for (const body of [{ copies: 0 }, { copies: 4 }, { copies: 1.5 }, { copies: '2' }, {}, { copies: 1, extra: true }]) {
      const res = await guestPrint(t.app, cookie, photo!.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await guestPrint(t.app, cookie, 'not-a-uuid', { copies: 1 })).status).toBe(400);
    expect((await queue()).jobs).toEqual([]);
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ used: 0 });
  });

  it('answers 403 when printing is turned off', async () => {
    const [photo] = await eventWithPhotos(t);
    await savePrintSettings(t, { enable: false });
    const cookie = await guestCookie(t.app);
    const res = await guestPrint(t.app, cookie, photo!.id, { copies: 1 });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('print_disabled');
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ enabled: false, used: 0 });
    expect((await queue()).jobs).toEqual([]);
  });

  it('answers 404 for a photo not indexed, of another event, or lost by the capture app', async () => {
    const [old] = await eventWithPhotos(t);
    expect((await adminRequest(t, 'post', '/events').send({ name: 'Anniversaire' })).status).toBe(201);
    const current = await t.sim.capture();
    const lost = await t.sim.capture();
    await t.services.indexer.rescan();
    expect(await t.client.deleteMedia(lost.id)).toBe(true);
    const cookie = await guestCookie(t.app);
    for (const id of ['00000000-0000-4000-8000-000000000000', old!.id, lost.id]) {
      expect((await guestPrint(t.app, cookie, id, { copies: 1 })).status, id).toBe(404);
    }
    expect((await guestPrint(t.app, cookie, current.id, { copies: 1 })).status).toBe(201);
    expect((await queue()).jobs).toHaveLength(1);
  });

  it('answers 429 with the remaining count when the quota would be exceeded', async () => {
    const [photo] = await eventWithPhotos(t);
    await savePrintSettings(t, { quota: 3 });
    const cookie = await guestCookie(t.app);
    expect((await guestPrint(t.app, cookie, photo!.id, { copies: 2 })).body.remaining).toBe(1);
    const res = await guestPrint(t.app, cookie, photo!.id, { copies: 2 });
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'quota_exceeded', details: { remaining: 1 } });
    expect((await queue()).jobs).toHaveLength(1);
    // Another guest has a quota of their own.
    expect((await guestPrint(t.app, await guestCookie(t.app), photo!.id, { copies: 2 })).status).toBe(201);
  });

  it('never lets 200 simultaneous requests of one session exceed its quota', async () => {
    const [photo] = await eventWithPhotos(t);
    await savePrintSettings(t, { quota: 37, limits: { quota: 37, max_copies: 5 } });
    const cookie = await guestCookie(t.app);
    const results = await Promise.all(Array.from({ length: 200 }, () => guestPrint(t.app, cookie, photo!.id, { copies: 1 })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(37);
    expect(statuses.filter((s) => s === 429)).toHaveLength(163);
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ used: 37, remaining: 0 });
    expect((await queue()).jobs).toHaveLength(37);
  });
});

describe('the queue', () => {
  it('settles a job left printing by a crash with CUPS, by its job id, without sending it again', async () => {
    const [a, b] = await eventWithPhotos(t, 2);
    printer.hold = true;
    t.services.printWorker.start();
    const first = (await adminRequest(t, 'post', `/photos/${a!.id}/print`).send({ copies: 1 })).body.job.id as number;
    const second = (await adminRequest(t, 'post', `/photos/${b!.id}/print`).send({ copies: 1 })).body.job.id as number;
    await new Promise<void>((resolve) => {
      const off = t.services.hub.subscribe('admin', (m) => {
        if (m.event === 'print-job' && m.data.id === first && m.data.cups_job_id !== null) {
          off();
          resolve();
        }
      });
    });
    // kill -9: the worker is gone with the job in `printing`; CUPS prints it meanwhile.
    await t.services.printWorker.stop();
    expect(t.services.print.job(first)).toMatchObject({ state: 'printing', cups_job_id: 'Photo-1' });
    printer.finish('Photo-1');
    printer.hold = false;
    t.services.printWorker.start();
    await jobReaches(t.services.hub, second, 'done', jobOf(second));
    expect(t.services.print.job(first).state).toBe('done');
    expect(printer.jobs.map((j) => j.title)).toEqual([`Boothdeck ${first} ${a!.id}`, `Boothdeck ${second} ${b!.id}`]);
    expect(copiesOf(a!.id)).toBe(1);
  });

  it('sends again a job that a crash left printing before CUPS took it', async () => {
    const [photo] = await eventWithPhotos(t);
    const id = (await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 1 })).body.job.id as number;
    t.db.prepare("UPDATE print_jobs SET state = 'printing' WHERE id = ?").run(id);
    t.services.printWorker.start();
    await jobReaches(t.services.hub, id, 'done', jobOf(id));
    expect(printer.jobs).toHaveLength(1);
  });

  it('pauses on a stopped or out-of-paper printer, tells guests why, and resumes by itself', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.setState('Photo', 'idle', ['media-empty-error'], 'Out of paper');
    const paused = printerPause(t.services.hub, 'out_of_paper');
    t.services.printWorker.start();
    const cookie = await guestCookie(t.app);
    const id = (await guestPrint(t.app, cookie, photo!.id, { copies: 1 })).body.job.id as number;
    await paused;
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ paused: 'out_of_paper' });
    const view = await queue();
    expect(view.printer).toMatchObject({ name: 'Photo', pause: 'out_of_paper', reasons: ['media-empty-error'] });
    expect(view.jobs[0]).toMatchObject({ id, state: 'queued' });
    expect(printer.jobs).toHaveLength(0);

    printer.setState('Photo', 'stopped', ['paused'], '');
    await printerPause(t.services.hub, 'stopped');
    printer.setState('Photo', 'idle');
    await jobReaches(t.services.hub, id, 'done', jobOf(id));
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ paused: null });
  });

  it('pauses while CUPS does not answer', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.reachable = false;
    t.services.printWorker.start();
    const paused = printerPause(t.services.hub, 'unreachable');
    const id = (await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 1 })).body.job.id as number;
    await paused;
    expect((await queue()).printer.state).toBe('unreachable');
    printer.reachable = true;
    await jobReaches(t.services.hub, id, 'done', jobOf(id));
  });

  it('cancels a queued job and gives the copies back; retries a failed one', async () => {
    const [photo] = await eventWithPhotos(t);
    const cookie = await guestCookie(t.app);
    const id = (await guestPrint(t.app, cookie, photo!.id, { copies: 3 })).body.job.id as number;
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ remaining: 2 });
    const cancelled = await adminRequest(t, 'post', `/print/jobs/${id}/cancel`);
    expect(cancelled.body.job).toMatchObject({ id, state: 'cancelled' });
    expect(await guestPrintSession(t.app, cookie)).toMatchObject({ remaining: 5 });
    expect((await adminRequest(t, 'post', `/print/jobs/${id}/cancel`)).status).toBe(409);
    expect((await adminRequest(t, 'post', '/print/jobs/999/cancel')).status).toBe(404);
    expect((await adminRequest(t, 'post', '/print/jobs/abc/cancel')).status).toBe(400);

    printer.hold = true;
    t.services.printWorker.start();
    const failing = (await guestPrint(t.app, cookie, photo!.id, { copies: 1 })).body.job.id as number;
    const sent = new Promise<void>((resolve) => {
      const off = t.services.hub.subscribe('admin', (m) => {
        if (m.event === 'print-job' && m.data.id === failing && m.data.cups_job_id) {
          off();
          resolve();
        }
      });
    });
    await sent;
    expect((await adminRequest(t, 'post', `/print/jobs/${failing}/retry`)).status).toBe(409);
    printer.finish('Photo-1', 'failed', 'Unable to open image file for printing!');
    const failed = await jobReaches(t.services.hub, failing, 'failed', jobOf(failing));
    expect(failed).toMatchObject({ error: 'printer_failed', error_detail: 'Unable to open image file for printing!' });
    expect(printer.cancelled).toEqual(['Photo-1']);
    expect(copiesOf(photo!.id)).toBe(0);
    printer.hold = false;
    expect((await adminRequest(t, 'post', `/print/jobs/${failing}/retry`)).body.job.state).toBe('queued');
    await jobReaches(t.services.hub, failing, 'done', jobOf(failing));
    expect(copiesOf(photo!.id)).toBe(1);
    expect(printer.jobs).toHaveLength(2);
  });

  it('prints for the operator without quota, clears finished jobs, counts and resets counters', async () => {
    const [photo] = await eventWithPhotos(t);
    await savePrintSettings(t, { quota: 0, enable: false });
    t.services.printWorker.start();
    const res = await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 4 });
    expect(res.status).toBe(201);
    expect(res.body.remaining).toBeNull();
    await jobReaches(t.services.hub, res.body.job.id as number, 'done', jobOf(res.body.job.id as number));
    expect((await adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 21 })).status).toBe(400);
    expect((await request(t.app).post(`/api/admin/photos/${photo!.id}/print`).send({ copies: 1 })).status).toBe(401);
    expect((await queue()).counters).toEqual({ event: 4, today: 4, total: 4 });
    expect((await adminRequest(t, 'post', '/print/queue/clear')).body).toEqual({ cleared: 1 });
    expect((await queue()).jobs).toEqual([]);
    expect((await queue()).counters.total).toBe(4);
    expect((await adminRequest(t, 'post', '/print/counters/reset').send({ counter: 'today' })).body.counters).toEqual({
      event: 4,
      today: 0,
      total: 4,
    });
    expect((await adminRequest(t, 'post', '/print/counters/reset').send({ counter: 'all' })).status).toBe(400);
    expect(t.services.print.summary()).toMatchObject({ queued: 0, printing: 0, failed: 0, paused: false, printer: 'Photo' });
  });

  it('lists the printers CUPS knows and keeps the chosen one in the settings', async () => {
    printer.printers.push({ name: 'Selphy', state: 'stopped', reasons: ['paused'], message: '', isDefault: false });
    expect((await adminRequest(t, 'get', '/print/printers')).body.printers).toEqual([
      { name: 'Photo', is_default: true, state: 'idle' },
      { name: 'Selphy', is_default: false, state: 'stopped' },
    ]);
    await savePrintSettings(t, { printer: 'Selphy' });
    expect((await queue()).printer).toMatchObject({ name: 'Selphy', state: 'stopped', pause: 'stopped' });
    expect((await adminRequest(t, 'put', '/settings').send({ print: { printer: 'bad name; rm' } })).status).toBe(400);
  });
});
