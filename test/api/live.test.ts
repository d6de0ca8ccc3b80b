import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { eventually } from '../support/eventually.js';
import { nextStreamMessage } from '../support/stream.js';

let t: SimApp;
let server: http.Server;
let base: string;

beforeEach(async () => {
  t = await startSimApp({ live: true });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await t.close();
});

const newEvent = async (name: string): Promise<void> => {
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name })).status).toBe(201);
};

describe('live updates', () => {
  it('a new photo of the current event reaches an open public gallery', async () => {
    await newEvent('En direct');
    await eventually(() => expect(t.services.captureLink.state).toBe('connected'));
    const stream = nextStreamMessage(`${base}/api/gallery/stream`, (m) => m.event === 'photo-added');
    await stream.opened;
    const item = await t.sim.capture('live');
    const message = await stream.message;
    expect(JSON.parse(message.data)).toMatchObject({
      id: item.id,
      urls: { thumb: expect.stringMatching(new RegExp(`^/api/gallery/photos/${item.id}/thumb\\?v=`)) as unknown },
    });
    expect((await request(t.app).get('/api/gallery/photos')).body.photos[0].id).toBe(item.id);
  });

  it('a removed photo leaves the public gallery live too', async () => {
    await newEvent('Retrait');
    await eventually(() => expect(t.services.captureLink.state).toBe('connected'));
    const item = await t.sim.capture();
    await eventually(() => expect(t.services.photoRepository.find(item.id)).toBeDefined());
    const stream = nextStreamMessage(`${base}/api/gallery/stream`, (m) => m.event === 'photo-removed');
    await stream.opened;
    await t.client.deleteMedia(item.id);
    expect(JSON.parse((await stream.message).data)).toEqual({ id: item.id });
  });
});

describe('a client that leaves in the middle of a ZIP', () => {
  it('leaves no open file behind', async () => {
    await newEvent('Gros export');
    // Large files, so that the export is in the middle of reading one when the client leaves.
    for (let i = 0; i < 12; i++) {
      const item = await t.sim.capture(`photo ${i}`);
      writeFileSync(path.join(t.sim.dataDir, item.processed), randomBytes(8 * 1024 * 1024));
    }
    await t.services.indexer.rescan();
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();

    await new Promise<void>((resolve, reject) => {
      const req = http.get(
        `${base}/api/admin/events/gros-export/export.zip?progress=leave-12345`,
        { headers: { Cookie: t.cookie } },
        (res) => {
          res.once('data', () => {
            res.pause();
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    await vi.waitFor(async () => {
      const progress = await request(t.app).get('/api/admin/events/gros-export/export/progress/leave-12345').set('Cookie', t.cookie);
      expect(progress.body.state).toBe('aborted');
    });
    const progress = await request(t.app).get('/api/admin/events/gros-export/export/progress/leave-12345').set('Cookie', t.cookie);
    expect(progress.body.files_done).toBeLessThan(12);
    await vi.waitFor(() => expect(openFiles()).toBeLessThanOrEqual(before));
  });
});
