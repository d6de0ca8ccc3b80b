import { appendFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOverview } from '../../server/contract/publish.contract.js';
import { mediaVersion } from '../../server/photos/media-version.js';
import { FakeRclone } from '../../server/publish/rclone.fake.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const DESTINATION = { type: 'local', path: '/srv/galeries' };

async function booth(rclone: FakeRclone): Promise<SimApp> {
  t = await startSimApp({ rclone, publish: { settleMs: 0, retryMinMs: 50, retryMaxMs: 200 } });
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Fête' })).status).toBe(201);
  return t;
}
const overview = async (s: SimApp): Promise<PublishOverview> =>
  (await request(s.app).get('/api/admin/publish').set('Cookie', s.cookie)).body as PublishOverview;
const enable = (s: SimApp) => s.services.publishing.service.update({ destination: DESTINATION, booth_name: 'b', enabled: true });
const media = (rclone: FakeRclone): string[] => [...rclone.files.keys()].filter((k) => k.includes('/media/'));

describe('the upload queue', () => {
  it('sends each file once, however many passes run and photos arrive', async () => {
    const rclone = new FakeRclone();
    const s = await booth(rclone);
    for (let i = 0; i < 3; i++) await s.sim.capture();
    await s.services.indexer.rescan();
    await enable(s);
    await s.services.publishing.queue.whenIdle();
    for (let i = 0; i < 2; i++) await s.sim.capture();
    await s.services.indexer.rescan();
    for (let i = 0; i < 3; i++) {
      s.services.publishing.queue.retryNow();
      await s.services.publishing.queue.whenIdle();
    }
    expect(media(rclone)).toHaveLength(5);
    // Each photo's four files, and the event's ZIP (once: it is made again at most every ten minutes).
    const sent = [...rclone.uploads].filter(([name]) => !name.endsWith('/index.html'));
    expect(sent).toHaveLength(21);
    expect(sent.filter(([name]) => name.includes('/zip/'))).toHaveLength(1);
    expect(sent.every(([, times]) => times === 1)).toBe(true);
    expect((await overview(s)).events[0]).toMatchObject({ state: 'online', photos_online: 5, photos_total: 5 });
  });

  it('a photo rewritten at the booth (a filter) goes online under a new name, and the old one goes', async () => {
    const rclone = new FakeRclone();
    const s = await booth(rclone);
    const item = await s.sim.capture();
    await s.services.indexer.rescan();
    await enable(s);
    await s.services.publishing.queue.whenIdle();
    const [before] = media(rclone);
    const versionOf = (): string => mediaVersion(s.services.photoRepository.find(item.id) ?? { mtime: 0, size: 0, updated_at: null });
    const oldVersion = versionOf();
    expect(s.services.publishing.previews.has(item.id, oldVersion)).toBe(true);

    const file = path.join(s.sim.dataDir, item.processed);
    appendFileSync(file, Buffer.alloc(64, 1));
    utimesSync(file, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    await s.services.indexer.rescan();
    s.services.publishing.queue.retryNow();
    await s.services.publishing.queue.whenIdle();
    const after = media(rclone);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(rclone.files.has(before ?? '')).toBe(false);
    expect(rclone.files.get(after[0] ?? '')?.subarray(-64)).toEqual(Buffer.alloc(64, 1));
    // The old picture's preview is gone from the booth's card; the new one's is kept.
    await expect.poll(() => s.services.publishing.previews.has(item.id, oldVersion)).toBe(false);
    expect(s.services.publishing.previews.has(item.id, versionOf())).toBe(true);
  });

  it('waits out a refusing remote, says why, shows guests nothing yet, and catches up once it works', async () => {
    const rclone = new FakeRclone();
    rclone.failure = 'auth';
    const s = await booth(rclone);
    await s.sim.capture();
    await s.sim.capture();
    await s.services.indexer.rescan();
    await s.services.publishing.service.update({
      destination: DESTINATION,
      booth_name: 'b',
      enabled: true,
      public_base_url: 'https://p.example.com',
    });
    // One answer read whole: a retry (every 50 to 200 ms here) may run between two readings.
    let waiting: PublishOverview | undefined;
    await expect.poll(async () => (waiting = await overview(s)).status.state).toBe('waiting');
    if (!waiting) throw new Error('no overview');
    expect(waiting.status.last_error?.reason).toBe('auth');
    expect(waiting.status.retry_at).not.toBeNull();
    expect(waiting.status.retry_in_s).toBeGreaterThanOrEqual(0);
    expect(waiting.status.retry_in_s).toBeLessThanOrEqual(1);
    expect(waiting.events[0]).toMatchObject({ state: 'publishing', photos_online: 0, photos_total: 2, url: null });
    expect((await request(s.app).get('/api/gallery/online')).body.url).toBeNull();

    rclone.failure = null;
    await s.services.publishing.queue.whenIdle();
    expect((await overview(s)).status).toMatchObject({ state: 'idle', last_error: null, retry_at: null });
    expect((await request(s.app).get('/api/gallery/online')).body.url).toMatch(/^https:\/\/p\.example\.com\/b\/[A-Za-z0-9_-]{22}\/$/);
  });

  it('withdraws an event even once publishing is turned off', async () => {
    const rclone = new FakeRclone();
    const s = await booth(rclone);
    await s.sim.capture();
    await s.services.indexer.rescan();
    await enable(s);
    await s.services.publishing.queue.whenIdle();
    // The photo's four files, the page and the ZIP.
    expect(rclone.files.size).toBe(6);
    await s.services.publishing.service.update({ enabled: false });
    expect((await request(s.app).delete('/api/admin/publish/events/fete').set('Cookie', s.cookie)).status).toBe(202);
    await s.services.publishing.queue.whenIdle();
    expect(rclone.files.size).toBe(0);
    expect((await overview(s)).events[0]).toMatchObject({ state: 'withdrawn', photos_online: 0 });
  });
});

describe('places', () => {
  it('another setting of the same folder (the WebDAV server kind) is not an old copy: nothing to remove, nothing listed', async () => {
    const rclone = new FakeRclone();
    const s = await booth(rclone);
    await s.sim.capture();
    await s.services.indexer.rescan();
    const dav = { type: 'webdav', url: 'http://127.0.0.1:9/dav', vendor: 'other', user: 'u', path: 'g' };
    await s.services.publishing.service.update({ destination: dav, booth_name: 'b', enabled: true });
    await s.services.publishing.queue.whenIdle();
    const before = [...rclone.files.keys()].sort();
    expect(before).toHaveLength(6);
    await s.services.publishing.service.update({ destination: { ...dav, vendor: 'nextcloud' } });
    await s.services.publishing.queue.whenIdle();
    const o = await overview(s);
    expect(o.leftovers).toEqual([]);
    expect([...rclone.files.keys()].sort()).toEqual(before);
    expect(o.events[0]).toMatchObject({ state: 'online', photos_online: 1, photos_to_send: 0 });
  });
});
