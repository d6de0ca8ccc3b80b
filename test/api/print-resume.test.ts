import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPrintJob, PrinterResumeResult } from '../../server/contract/print.contract.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { adminRequest, eventWithPhotos, guestCookie, guestPrint, jobReaches, printerPause, savePrintSettings } from '../support/print.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

/** "Reprendre l'impression", the error policy kept on the queue, and a printer just chosen used at once (fake printer). */
let t: SimApp;
let printer: FakePrinter;
beforeEach(async () => {
  printer = new FakePrinter();
  t = await startSimApp({ printer, print: { pollMs: 20, pausePollMs: 50 } });
});
afterEach(async () => {
  await t.close();
});

const resume = async (): Promise<{ status: number; body: PrinterResumeResult & { error?: { code: string } } }> => {
  const res = await adminRequest(t, 'post', '/print/printer/resume');
  return { status: res.status, body: res.body as PrinterResumeResult & { error?: { code: string } } };
};
const jobOf = (id: number) => (): AdminPrintJob | undefined => t.services.print.job(id);
const twoPrinters = (): void => {
  printer.printers = [
    { name: 'Selphy', state: 'idle', reasons: [], message: '', isDefault: false },
    { name: 'DNP', state: 'idle', reasons: [], message: '', isDefault: false },
  ];
};

describe('Reprendre l’impression', () => {
  it('resumes the stopped queue in use, and the waiting jobs print once each, in order', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.setState('Photo', 'stopped', ['paused'], 'Paper out');
    t.services.printWorker.start();
    await printerPause(t.services.hub, 'out_of_paper');
    const cookie = await guestCookie(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await guestPrint(t.app, cookie, photo!.id, { copies: 1 })).body.job.id as number);

    const res = await resume();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'resumed', printer: { name: 'Photo', pause: null, accepting: true } });
    expect(printer.administered.filter((a) => a.startsWith('resume'))).toEqual(['resume Photo']);
    for (const id of ids) await jobReaches(t.services.hub, id, 'done', jobOf(id));
    expect(printer.jobs.map((j) => j.title)).toEqual(ids.map((id) => `Boothdeck ${id} ${photo!.id}`));
  });

  it('resumes a queue that refuses jobs', async () => {
    printer.printers[0]!.accepting = false;
    await t.services.printWorker.refreshPrinter();
    expect(t.services.printWorker.printerStatus()).toMatchObject({ pause: 'stopped', accepting: false });
    expect((await resume()).body.outcome).toBe('resumed');
    expect(printer.printers[0]!.accepting).toBe(true);
  });

  it('says so when the printer still reports its problem after resuming, and the jobs keep waiting', async () => {
    const [photo] = await eventWithPhotos(t);
    printer.setState('Photo', 'stopped', ['media-empty-error'], '');
    // The queue is enabled again, but the paper is still out.
    printer.onResume = (p) => Object.assign(p, { state: 'idle', reasons: ['media-empty-error'] });
    t.services.printWorker.start();
    const cookie = await guestCookie(t.app);
    const id = (await guestPrint(t.app, cookie, photo!.id, { copies: 1 })).body.job.id as number;
    const res = await resume();
    expect(res.body).toMatchObject({ outcome: 'still_paused', printer: { pause: 'out_of_paper' } });
    expect(t.services.print.job(id).state).toBe('queued');

    // CUPS stops it again at once (its error policy, the backend failing again).
    printer.setState('Photo', 'stopped', ['paused'], 'Backend failed');
    printer.onResume = (p) => Object.assign(p, { state: 'stopped', reasons: ['paused'], message: 'Backend failed' });
    expect((await resume()).body).toMatchObject({ outcome: 'still_paused', printer: { pause: 'stopped' } });
    expect(printer.jobs).toHaveLength(0);
  });

  it('does nothing to a queue that is not stopped, and refuses without a printer or without the right', async () => {
    expect((await resume()).body).toMatchObject({ outcome: 'not_stopped', printer: { pause: null } });
    expect(printer.administered.filter((a) => a.startsWith('resume'))).toEqual([]);

    printer.setState('Photo', 'stopped', ['paused'], '');
    printer.forbidden = true;
    const refused = await resume();
    expect(refused.status).toBe(503);
    expect(refused.body.error?.code).toBe('printer_not_permitted');

    twoPrinters();
    const none = await resume();
    expect(none.status).toBe(409);
    expect(none.body.error?.code).toBe('no_printer');
  });
});

describe('the error policy of the queue in use', () => {
  it('is retry by default, set on the printer chosen, changed both ways, and set again when CUPS reports another', async () => {
    const settings = (await adminRequest(t, 'get', '/settings')).body as { print: { error_policy: string } };
    expect(settings.print.error_policy).toBe('retry-current-job');
    printer.printers.push({ name: 'DNP', state: 'idle', reasons: [], message: '', isDefault: false });

    await savePrintSettings(t, { printer: 'DNP' });
    expect(printer.policies.get('DNP')).toBe('retry-current-job');
    expect(t.services.printWorker.printerStatus()).toMatchObject({ name: 'DNP', error_policy: 'retry-current-job' });

    await savePrintSettings(t, { error_policy: 'stop-printer' });
    expect(printer.policies.get('DNP')).toBe('stop-printer');
    expect(t.services.printWorker.printerStatus().error_policy).toBe('stop-printer');
    await savePrintSettings(t, { error_policy: 'retry-current-job' });
    expect(printer.policies.get('DNP')).toBe('retry-current-job');

    // Someone changed it in CUPS: the next reading of the printer's details sets it back.
    printer.policies.set('DNP', 'abort-job');
    await t.services.printWorker.watch.detailsOf('DNP', true);
    expect(printer.policies.get('DNP')).toBe('retry-current-job');

    const bad = await adminRequest(t, 'put', '/settings').send({ print: { error_policy: 'abort-job' } });
    expect(bad.status).toBe(400);
    expect(printer.policies.get('DNP')).toBe('retry-current-job');
  });
});

describe('a printer just chosen', () => {
  it('is used by a print sent in the same moment as the save: 201, never 503', async () => {
    const [photo] = await eventWithPhotos(t);
    twoPrinters();
    t.services.printWorker.start();
    await printerPause(t.services.hub, 'no_printer');
    const cookie = await guestCookie(t.app);
    for (let i = 0; i < 10; i++) {
      const chosen = i % 2 === 0 ? 'DNP' : 'Selphy';
      const [saved, guest, operator] = await Promise.all([
        adminRequest(t, 'put', '/settings').send({ print: { printer: chosen, quota: 20 } }),
        guestPrint(t.app, cookie, photo!.id, { copies: 1 }),
        adminRequest(t, 'post', `/photos/${photo!.id}/print`).send({ copies: 1 }),
      ]);
      expect(saved.status).toBe(200);
      expect(guest.status, JSON.stringify(guest.body)).toBe(201);
      expect(operator.status, JSON.stringify(operator.body)).toBe(201);
      await savePrintSettings(t, { printer: null });
      expect(t.services.printWorker.printerStatus().pause).toBe('no_printer');
    }
  });
});
