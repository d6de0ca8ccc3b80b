import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOverview, PublishTestResult } from '../../server/contract/publish.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { freePort, startWebdav, writeDavConfig, type WebdavServer } from '../support/rclone.js';

let t: SimApp | undefined;
let dav: WebdavServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  await dav?.stop();
  t = undefined;
  dav = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-remote-'));
  dirs.push(dir);
  return dir;
};
const app = (): SimApp => {
  if (!t) throw new Error('no app');
  return t;
};
const admin = (method: 'get' | 'put' | 'post' | 'delete', p: string, body?: object) =>
  request(app().app)[method](`/api/admin${p}`).set('Cookie', app().cookie).send(body);
const overview = async (): Promise<PublishOverview> => (await admin('get', '/publish')).body as PublishOverview;

/** An event with a photo, a video and an animation, indexed. */
async function eventWithMedia(name = 'Mariage Léa & Tom'): Promise<string[]> {
  expect((await admin('post', '/events', { name })).status).toBe(201);
  const items = [
    await app().sim.capture(),
    await app().sim.capture('Vidéo', new Date(), 'video'),
    await app().sim.capture('Anim', new Date(), 'animation'),
  ];
  await app().services.indexer.rescan();
  return items.map((i) => i.id);
}

const settle = () => app().services.publishing.queue.whenIdle();
/** The event's folder on a remote folder: booth name, then its token. */
function eventFolder(root: string): string {
  const booth = readdirSync(root).find((n) => !n.startsWith('.'));
  if (!booth) throw new Error('nothing published');
  const token = readdirSync(path.join(root, booth))[0];
  if (!token) throw new Error('no event folder');
  return path.join(root, booth, token);
}

describe('publishing settings', () => {
  it('needs the admin session', async () => {
    t = await startSimApp();
    expect((await request(t.app).get('/api/admin/publish/settings')).status).toBe(401);
    expect(
      (
        await request(t.app)
          .put('/api/admin/publish/settings')
          .send({ destination: { type: 'local', path: '/tmp' } })
      ).status,
    ).toBe(401);
  });

  it.each([
    [{ remote: '/tmp' }, 'remote'],
    [{ destination: { type: 'local', path: 'relative' } }, 'destination.path'],
    [{ destination: { type: 'local', path: '/a\u0000' } }, 'destination.path'],
    [{ destination: { type: 'ftp', path: '/a' } }, 'destination'],
    [{ booth_name: 'Not Good' }, 'booth_name'],
    [{ public_base_url: 'ftp://x' }, 'public_base_url'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ other: 1 }, 'other'],
  ])('refuses %j with a 400 naming the field, and keeps the settings', async (body, field) => {
    t = await startSimApp();
    const before = (await admin('get', '/publish/settings')).body;
    const res = await admin('put', '/publish/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect((await admin('get', '/publish/settings')).body).toEqual(before);
  });

  it('tests a remote by writing, reading and deleting a probe, and says why one fails', async () => {
    t = await startSimApp();
    expect((await admin('post', '/publish/test')).status).toBe(409);
    const root = tempDir();
    expect((await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, booth_name: 'booth-1' })).status).toBe(
      200,
    );
    const ok = (await admin('post', '/publish/test')).body as PublishTestResult;
    expect(ok).toMatchObject({ ok: true, reason: null, step: null });
    expect(readdirSync(path.join(root, 'booth-1'))).toEqual([]);

    const port = await freePort();
    await admin('put', '/publish/settings', {
      destination: { type: 'webdav', url: `http://127.0.0.1:${port}`, vendor: 'other', user: 'booth', path: '' },
    });
    const down = (await admin('post', '/publish/test')).body as PublishTestResult;
    expect(down).toMatchObject({ ok: false, reason: 'unreachable', step: 'write' });
    // A remote of the owner's file that the file does not list is refused when saved.
    writeDavConfig(path.dirname(path.dirname(t.services.publishing.service.configPath)), `http://127.0.0.1:${port}`);
    const missing = await admin('put', '/publish/settings', {
      destination: { type: 'rclone', remote: 'nosuchremote', path: 'b', config: 'boothdeck' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('destination.remote');
    const listed = await admin('put', '/publish/settings', {
      destination: { type: 'rclone', remote: 'dav', path: '', config: 'boothdeck' },
    });
    expect(listed.status).toBe(200);
    expect(((await admin('post', '/publish/test')).body as PublishTestResult).reason).toBe('unreachable');
  });
});

describe('an event published with rclone', () => {
  it('goes to a local remote: page, originals and thumbnails, an address and a QR code for guests', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    expect((await request(t.app).get('/api/gallery/online')).body).toEqual({ url: null, svg: null });
    const ids = await eventWithMedia();
    const root = tempDir();
    await admin('put', '/publish/settings', {
      destination: { type: 'local', path: root },
      booth_name: 'booth-1',
      public_base_url: 'https://photos.example.com/galeries/',
      enabled: true,
    });
    await settle();

    const folder = eventFolder(root);
    expect(path.basename(folder)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const html = readFileSync(path.join(folder, 'index.html'), 'utf8');
    expect(html).toContain('Mariage Léa &amp; Tom');
    expect(html).toContain('name="robots" content="noindex');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(readdirSync(path.join(folder, 'media'))).toHaveLength(3);
    expect(readdirSync(path.join(folder, 'thumbs'))).toHaveLength(3);
    for (const id of ids) {
      const row = t.services.photoRepository.find(id);
      const name = readdirSync(path.join(folder, 'media')).find((n) => n.startsWith(row?.stem ?? '?'));
      expect(name).toBeDefined();
      expect(readFileSync(path.join(folder, 'media', name ?? ''))).toEqual(readFileSync(path.join(t.sim.dataDir, row?.file ?? '')));
    }

    const event = (await overview()).events[0];
    const url = `https://photos.example.com/galeries/booth-1/${path.basename(folder)}/`;
    expect(event).toMatchObject({ state: 'online', photos_online: 3, photos_total: 3, url });
    const online = await request(t.app).get('/api/gallery/online');
    expect(online.body.url).toBe(url);
    expect(online.body.svg).toContain('<svg');
  });

  it('removes online a photo deleted at the booth, at the next sync', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    const ids = await eventWithMedia();
    const root = tempDir();
    await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, enabled: true });
    await settle();
    const folder = eventFolder(root);
    const gone = t.services.photoRepository.find(ids[0] ?? '');
    expect((await admin('delete', `/photos/${ids[0]}`)).status).toBeLessThan(300);
    t.services.publishing.queue.wake(false);
    await settle();
    expect(readdirSync(path.join(folder, 'media')).filter((n) => n.startsWith(gone?.stem ?? '?'))).toEqual([]);
    expect(readdirSync(path.join(folder, 'media'))).toHaveLength(2);
    expect(readFileSync(path.join(folder, 'index.html'), 'utf8')).not.toContain(gone?.stem ?? '?');
    expect((await overview()).events[0]).toMatchObject({ photos_online: 2, photos_total: 2 });
  });

  it('publishes an archived event on request, and withdraws it', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    await eventWithMedia('Avant');
    expect((await admin('post', '/events', { name: 'Maintenant' })).status).toBe(201);
    const root = tempDir();
    await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, booth_name: 'b' });
    expect((await admin('post', '/publish/events/nope')).status).toBe(404);
    expect((await admin('post', '/publish/events/avant')).status).toBe(202);
    await admin('put', '/publish/settings', { enabled: true });
    await settle();
    const states = Object.fromEntries((await overview()).events.map((e) => [e.slug, e.state]));
    expect(states).toEqual({ avant: 'online', maintenant: 'online' });
    expect(readdirSync(path.join(root, 'b'))).toHaveLength(2);

    expect((await admin('delete', '/publish/events/avant')).status).toBe(202);
    await settle();
    expect(readdirSync(path.join(root, 'b'))).toHaveLength(1);
    expect((await overview()).events.find((e) => e.slug === 'avant')).toMatchObject({ state: 'withdrawn', url: null });
    const index = await admin('get', '/publish/company-index.html');
    expect(index.text).toContain('Maintenant');
    expect(index.text).not.toContain('Avant');
  });

  it('goes to a WebDAV remote served by rclone on loopback', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    const served = tempDir();
    dav = await startWebdav(served);
    await eventWithMedia();
    await admin('put', '/publish/settings', {
      destination: { type: 'webdav', url: dav.url, vendor: 'other', user: 'booth', path: 'galeries' },
      booth_name: 'booth-2',
      enabled: true,
    });
    await settle();
    const folder = eventFolder(path.join(served, 'galeries'));
    expect(existsSync(path.join(folder, 'index.html'))).toBe(true);
    expect(readdirSync(path.join(folder, 'media'))).toHaveLength(3);
    expect((await overview()).events[0]).toMatchObject({ state: 'online', photos_online: 3 });
  });

  it('waits while the remote is unreachable, says why, and catches up once it is back', async () => {
    t = await startSimApp({ publish: { settleMs: 0, retryMinMs: 100, retryMaxMs: 400 } });
    const port = await freePort();
    await eventWithMedia();
    await admin('put', '/publish/settings', {
      destination: { type: 'webdav', url: `http://127.0.0.1:${port}`, vendor: 'other', user: 'booth', path: '' },
      enabled: true,
    });
    const waiting = await new Promise<PublishOverview>((resolve) => {
      const look = async (): Promise<void> => {
        const o = await overview();
        if (o.status.state === 'waiting') resolve(o);
        else setTimeout(() => void look(), 50);
      };
      void look();
    });
    expect(waiting.status.last_error?.reason).toBe('unreachable');
    expect(waiting.events[0]).toMatchObject({ state: 'publishing', photos_online: 0, photos_total: 3 });

    const served = tempDir();
    dav = await startWebdav(served, port);
    await settle();
    const o = await overview();
    expect(o.status).toMatchObject({ state: 'idle', last_error: null });
    expect(o.events[0]).toMatchObject({ state: 'online', photos_online: 3 });
    expect(readdirSync(path.join(eventFolder(served), 'media'))).toHaveLength(3);
  });
});
