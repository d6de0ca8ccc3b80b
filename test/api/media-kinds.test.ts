import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPhoto, PublicPhoto } from '../../server/contract/photos.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { readZip } from '../support/zip.js';
import { guestCookie, guestPrint } from '../support/print.js';
import { binary } from '../support/binary.js';

let t: SimApp;
beforeEach(async () => {
  t = await startSimApp();
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Fête' })).status).toBe(201);
});
afterEach(async () => {
  await t.close();
});

const admin = (p: string) => request(t.app).get(`/api/admin${p}`).set('Cookie', t.cookie);
const guest = (p: string) => request(t.app).get(`/api/gallery${p}`);

/** One item of each kind the booth makes, indexed by a rescan. */
async function oneOfEach(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const type of ['image', 'collage', 'animation', 'video'] as const) ids[type] = (await t.sim.capture(type, new Date(), type)).id;
  await t.services.indexer.rescan();
  return ids;
}

describe('every kind of media', () => {
  it('indexes photos, collages, WebP animations (the capture app’s default) and MP4 videos with their kind', async () => {
    const ids = await oneOfEach();
    const photos = (await admin('/photos')).body.photos as AdminPhoto[];
    const kindOf = (id: string | undefined) => photos.find((p) => p.id === id);
    expect(kindOf(ids.image)).toMatchObject({ kind: 'photo', processed: true });
    expect(kindOf(ids.collage)).toMatchObject({ kind: 'collage', processed: true });
    expect(kindOf(ids.animation)).toMatchObject({ kind: 'animation', file_name: expect.stringMatching(/\.webp$/) });
    expect(kindOf(ids.video)).toMatchObject({ kind: 'video', file_name: expect.stringMatching(/\.mp4$/) });
    expect(kindOf(ids.video)?.urls.media).toMatch(new RegExp(`^/api/admin/photos/${ids.video}/media\\?v=[0-9a-z]{7}$`));
    expect(kindOf(ids.image)?.urls.media).toBeUndefined();
    const publicKinds = ((await guest('/photos')).body.photos as PublicPhoto[]).map((p) => p.kind).sort();
    expect(publicKinds).toEqual(['animation', 'collage', 'photo', 'video']);
  });

  it('indexes a video announced live, and serves it for playing with ranges, a still thumbnail and a download', async () => {
    const video = await t.sim.capture('Boomerang', new Date(), 'video');
    await t.services.indexer.indexItem(video);
    const file = readFileSync(path.join(t.sim.dataDir, video.processed));

    const whole = await guest(`/photos/${video.id}/media`).buffer(true).parse(binary);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect((whole.body as Buffer).equals(file)).toBe(true);
    const part = await guest(`/photos/${video.id}/media`).set('Range', 'bytes=0-99').buffer(true).parse(binary);
    expect(part.status).toBe(206);
    expect((part.body as Buffer).equals(file.subarray(0, 100))).toBe(true);

    const thumb = await guest(`/photos/${video.id}/thumb`).buffer(true).parse(binary);
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.body as Buffer).metadata()).format).toBe('webp');

    const download = await guest(`/photos/${video.id}/download`).buffer(true).parse(binary);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('video/mp4');
    expect(download.headers['content-disposition']).toMatch(/filename="Fete_[\d_-]+\.mp4"/);
    expect((download.body as Buffer).equals(file)).toBe(true);
  });

  it('plays an animation from its own animated WebP, and refuses to play a still', async () => {
    const ids = await oneOfEach();
    const webp = await guest(`/photos/${ids.animation}/media`).buffer(true).parse(binary);
    expect(webp.status).toBe(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.body as Buffer, { animated: true }).metadata()).pages).toBe(3);
    expect((await guest(`/photos/${ids.image}/media`)).status).toBe(404);
  });

  it('prints stills and collages, never a video or an animation, for guests and the operator alike', async () => {
    const ids = await oneOfEach();
    await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ print: { enable: true } });
    // A guest prints from the gallery page, which gave the phone its session.
    const guestSession = await guestCookie(t.app);
    for (const kind of ['video', 'animation'] as const) {
      const asGuest = await guestPrint(t.app, guestSession, ids[kind]!, { copies: 1 });
      expect(asGuest.status).toBe(409);
      expect(asGuest.body.error.code).toBe('not_printable');
      const asOperator = await request(t.app).post(`/api/admin/photos/${ids[kind]}/print`).set('Cookie', t.cookie).send({ copies: 1 });
      expect(asOperator.status).toBe(409);
    }
    expect((await guestPrint(t.app, guestSession, ids.collage!, { copies: 1 })).status).toBe(201);
    expect((await request(t.app).get('/api/admin/print/queue').set('Cookie', t.cookie)).body.jobs).toHaveLength(1);
  });

  it('puts videos and animations in the event’s ZIP export', async () => {
    await oneOfEach();
    const res = await admin('/events/fete/export.zip').buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const names = (await readZip(res.body as Buffer)).map((e) => path.extname(e.name)).sort();
    // The collage's two parts (shown in the gallery, as the capture app's collage action does) are the operator's too.
    expect(names).toEqual(['.jpg', '.jpg', '.jpg', '.jpg', '.mp4', '.webp']);
  });

  it('shows an item still being processed to the operator only, and to guests once its file is there', async () => {
    const { item, finish } = await t.sim.captureProcessing('image');
    await t.services.indexer.indexItem(item);
    expect(((await admin('/photos')).body.photos as AdminPhoto[])[0]).toMatchObject({ id: item.id, processed: false, missing: false });
    expect((await guest('/photos')).body).toMatchObject({ photos: [], event: { name: 'Fête', photo_count: 0 } });
    expect((await guest(`/photos/${item.id}/download`)).status).toBe(404);
    // Not yet made is not vanished: a rescan leaves it waiting.
    expect(await t.services.indexer.rescan()).toMatchObject({ missing: 0 });

    const published: string[] = [];
    const off = t.services.hub.subscribe('gallery', (m) => published.push(`${m.event}:${'id' in m.data ? m.data.id : ''}`));
    await finish();
    expect(await t.services.indexer.recheckUnprocessed()).toBe(0);
    off();
    expect(published).toEqual([`photo-added:${item.id}`]);
    expect(((await admin('/photos')).body.photos as AdminPhoto[])[0]).toMatchObject({ processed: true });
    expect((await guest('/photos')).body).toMatchObject({ photos: [{ id: item.id }], event: { photo_count: 1 } });
  });
});

describe('the top of the guests’ gallery', () => {
  it('carries the welcome line the operator set with the event, and the event’s photo count', async () => {
    const post = (body: object) => request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send(body);
    expect((await post({ name: 'Gala', welcome: 'x'.repeat(141) })).status).toBe(400);
    const created = await post({ name: 'Gala', welcome: '  Bienvenue au gala !  ' });
    expect(created.status).toBe(201);
    expect(created.body.event).toMatchObject({ slug: 'gala', welcome: 'Bienvenue au gala !' });
    await t.sim.capture();
    await t.sim.capture();
    await t.services.indexer.rescan();
    expect((await guest('/photos?limit=1')).body.event).toEqual({ name: 'Gala', photo_count: 2, welcome: 'Bienvenue au gala !' });
  });
});
