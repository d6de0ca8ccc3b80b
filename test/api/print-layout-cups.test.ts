import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CupsPrinter } from '../../server/print/printer.cups.js';
import type { SubmitOptions } from '../../server/print/printer.port.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import { CUPS_PRINTER, cupsCommand, pageEdges, pageSize, pdfOf, requireCups } from '../support/cups.js';
import { guestCookie, guestPrintSession, jobReaches } from '../support/print.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

/** Paper, layout and orientation as the real CUPS-PDF printer lays them out; the watcher against real CUPS. */
const cups = new CupsPrinter(createExecSystem());
let dir: string;
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

/** A photo whose first half (left when landscape, top when portrait) is red and the other blue. */
async function twoColourPhoto(name: string, width: number, height: number): Promise<string> {
  const file = path.join(dir, name);
  const landscape = width > height;
  const half = { width: landscape ? width / 2 : width, height: landscape ? height : height / 2 };
  const blue = await sharp({ create: { ...half, channels: 3, background: '#0000ff' } })
    .png()
    .toBuffer();
  await sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .composite([{ input: blue, left: landscape ? width / 2 : 0, top: landscape ? 0 : height / 2 }])
    // Cameras write Exif; CUPS's image filter refuses a JPEG with neither JFIF nor Exif.
    .withMetadata({ density: 300 })
    .jpeg({ quality: 95 })
    .toFile(file);
  return file;
}

/** Sends a file through the adapter and waits for cups-pdf's PDF of it. */
async function printed(file: string, options: Partial<SubmitOptions>): Promise<string> {
  const id = await cups.submit(CUPS_PRINTER, file, {
    copies: 1,
    title: 'layout',
    paper: null,
    layout: 'fill',
    orientation: null,
    ...options,
  });
  await expect.poll(async () => (await cups.jobStatus(CUPS_PRINTER, id)).state, { timeout: 30_000, interval: 200 }).toBe('completed');
  await expect.poll(() => pdfOf(id), { timeout: 10_000, interval: 200 }).toBeDefined();
  return pdfOf(id) ?? '';
}

const near = (rgb: number[], want: number[]): boolean => rgb.every((c, i) => Math.abs(c - (want[i] ?? 0)) < 60);

beforeAll(() => {
  requireCups();
  cupsCommand('cupsenable');
  dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-layout-'));
});

describe('the paper and layout through CUPS-PDF', () => {
  it('prints on the chosen paper size', async () => {
    const photo = await twoColourPhoto('land.jpg', 1200, 800);
    expect(pageSize(await printed(photo, { paper: 'A5' }))).toMatchObject({ width: 421, height: 595, name: 'A5' });
    expect(pageSize(await printed(photo, { paper: 'Letter' }))).toMatchObject({ width: 612, height: 792 });
  });

  it('fills the paper without a white margin, or fits the whole photo with margins', async () => {
    const photo = await twoColourPhoto('wide.jpg', 1500, 800);
    const fill = await pageEdges(await printed(photo, { paper: 'A5', layout: 'fill', orientation: 'landscape' }));
    expect(fill.blank).toEqual({ top: false, bottom: false, left: false, right: false });
    const fit = await pageEdges(await printed(photo, { paper: 'A5', layout: 'fit', orientation: 'landscape' }));
    // A 15:8 photo turned onto portrait A5: whole, with paper left at the sides of its short edges.
    expect(fit.blank.left && fit.blank.right).toBe(true);
  });

  it('turns a landscape photo onto portrait paper and keeps a portrait one upright', async () => {
    const land = await pageEdges(await printed(await twoColourPhoto('l.jpg', 1200, 800), { paper: 'A5', orientation: 'landscape' }));
    // Its left (red) and right (blue) halves now run along the page's length: top and bottom differ.
    expect([near(land.top, RED) || near(land.top, BLUE), near(land.bottom, RED) || near(land.bottom, BLUE)]).toEqual([true, true]);
    expect(near(land.top, RED)).not.toBe(near(land.bottom, RED));
    // On landscape paper (6×4 in), a landscape photo stays as it is: red on the left, blue on the right.
    const wide = await pageEdges(
      await printed(await twoColourPhoto('l2.jpg', 1200, 800), { paper: 'Custom.6x4in', orientation: 'portrait' }),
    );
    expect([near(wide.left, RED), near(wide.right, BLUE)]).toEqual([true, true]);
    const port = await pageEdges(await printed(await twoColourPhoto('p.jpg', 800, 1200), { paper: 'A5', orientation: 'portrait' }));
    expect(near(port.top, RED)).toBe(true);
    expect(near(port.bottom, BLUE)).toBe(true);
  });
});

describe('the booth with the real CUPS printer', () => {
  let t: SimApp;
  beforeAll(async () => {
    t = await startSimApp({ printer: cups, print: { pollMs: 100, pausePollMs: 200, watchMs: 2000 } });
    await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ print: { printer: CUPS_PRINTER, paper: 'A5', layout: 'fill' } });
    await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Gala' });
    await t.sim.capture();
    await t.services.indexer.rescan();
    t.services.printWorker.start();
  });
  afterEach(() => {
    cupsCommand('cupsenable');
  });
  afterAll(async () => {
    await t.close();
  });

  it('prints a test page on the chosen paper', async () => {
    const res = await request(t.app).post('/api/admin/print/test-page').set('Cookie', t.cookie);
    expect(res.status).toBe(201);
    const jobId = res.body.job.id as number;
    const done = await jobReaches(t.services.hub, jobId, 'done', () => t.services.print.job(jobId));
    await expect.poll(() => pdfOf(done.cups_job_id ?? ''), { timeout: 10_000 }).toBeDefined();
    const pdf = pdfOf(done.cups_job_id ?? '') ?? '';
    expect(pageSize(pdf).name).toBe('A5');
    expect((await pageEdges(pdf)).blank).toEqual({ top: false, bottom: false, left: false, right: false });
  });

  it('shows cupsdisable with an empty queue to the console and a guest within 5 s', async () => {
    const cookie = await guestCookie(t.app);
    expect(t.services.print.glance()).toMatchObject({ queued: 0, printing: 0 });
    const heardBy = (subscribe: (done: () => void) => () => void): Promise<number> =>
      new Promise((resolve) => {
        const off = subscribe(() => {
          off();
          resolve(performance.now());
        });
      });
    const console = heardBy((done) =>
      t.services.hub.subscribe('admin', (m) => {
        if (m.event === 'print-printer' && m.data.pause === 'stopped') done();
      }),
    );
    const guest = heardBy((done) =>
      t.services.hub.subscribe('gallery', (m) => {
        if (m.event === 'print-status' && m.data.paused === 'stopped') done();
      }),
    );
    const start = performance.now();
    cupsCommand('cupsdisable');
    const [a, g] = await Promise.all([console, guest]);
    expect(Math.max(a, g) - start).toBeLessThan(5000);
    expect((await guestPrintSession(t.app, cookie)).paused).toBe('stopped');
  });

  it('leaves a job that CUPS forgot (cancel -x) unknown, not done', async () => {
    const photoId = t.services.print.queue().then((q) => q.jobs[0]?.photo_id ?? '');
    const id = await photoId;
    // The moment lp hands the job to CUPS, someone purges it there (the hub calls listeners at once).
    const off = t.services.hub.subscribe('admin', (m) => {
      if (m.event === 'print-job' && m.data.cups_job_id && m.data.state === 'printing') {
        off();
        cupsCommand('cancel', '-x', m.data.cups_job_id);
      }
    });
    const res = await request(t.app).post(`/api/admin/photos/${id}/print`).set('Cookie', t.cookie).send({ copies: 2 });
    expect(res.status).toBe(201);
    const jobId = res.body.job.id as number;
    const settled = await jobReaches(t.services.hub, jobId, 'failed', () => t.services.print.job(jobId));
    expect(settled.error).toBe('unknown_outcome');
    expect(t.services.photoRepository.find(id)?.printed_copies).toBe(1);
    expect(t.services.print.glance().unknown).toBe(1);
  });
});
