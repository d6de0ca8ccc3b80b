import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SseParser, type SseMessage } from '../../server/capture/sse-parser.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

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

/** Opens a server-sent-event stream and resolves with the first message that matches. */
function nextMessage(
  url: string,
  match: (m: SseMessage) => boolean,
  opened: () => void,
): { message: Promise<SseMessage>; close: () => void } {
  const controller = new AbortController();
  const message = (async () => {
    const res = await fetch(url, { signal: controller.signal });
    opened();
    let found: SseMessage | undefined;
    const parser = new SseParser((m) => {
      if (!found && match(m)) found = m;
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    while (!found) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    controller.abort();
    if (!found) throw new Error('stream ended');
    return found;
  })();
  return { message, close: () => controller.abort() };
}

describe('live updates', () => {
  it('a new photo of the current event reaches an open public gallery', async () => {
    await newEvent('En direct');
    await vi.waitFor(() => expect(t.services.captureLink.state).toBe('connected'));
    let ready!: () => void;
    const opened = new Promise<void>((resolve) => (ready = resolve));
    const stream = nextMessage(`${base}/api/gallery/stream`, (m) => m.event === 'photo-added', ready);
    await opened;
    const item = await t.sim.capture('live');
    const message = await stream.message;
    expect(JSON.parse(message.data)).toMatchObject({ id: item.id, urls: { thumb: `/api/gallery/photos/${item.id}/thumb` } });
    expect((await request(t.app).get('/api/gallery/photos')).body.photos[0].id).toBe(item.id);
  });

  it('a removed photo leaves the public gallery live too', async () => {
    await newEvent('Retrait');
    await vi.waitFor(() => expect(t.services.captureLink.state).toBe('connected'));
    const item = await t.sim.capture();
    await vi.waitFor(() => expect(t.services.photoRepository.find(item.id)).toBeDefined());
    let ready!: () => void;
    const opened = new Promise<void>((resolve) => (ready = resolve));
    const stream = nextMessage(`${base}/api/gallery/stream`, (m) => m.event === 'photo-removed', ready);
    await opened;
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
