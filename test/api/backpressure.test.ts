import { setImmediate as nextTurn } from 'node:timers/promises';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { MAX_UNREAD_BYTES } from '../../server/http/sse.js';
import { buildTestApp, signIn } from '../support/app.js';
import { captureItem } from '../support/capture-item.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))));
});

async function listen(app: http.RequestListener): Promise<number> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

const healthz = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });

describe('streams respect backpressure', () => {
  it('drops a client that stops reading once its unread bytes pass the bound; a reading client gets every event', async () => {
    const t = await buildTestApp();
    const port = await listen(t.app);

    // A phone that opened the gallery's stream and never reads it again.
    const stalled = net.connect(port, '127.0.0.1');
    await once(stalled, 'connect');
    stalled.write(`GET /api/gallery/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    stalled.pause();

    let received = 0;
    const reader = http.get({ host: '127.0.0.1', port, path: '/api/gallery/stream', agent: false });
    const [res] = (await once(reader, 'response')) as [http.IncomingMessage];
    res.on('data', (chunk: Buffer) => (received += chunk.toString().split('event: event\n').length - 1));
    // Both streams are open once the stalled phone's request has been read too.
    await expect.poll(() => t.services.hub.listenerCount('gallery')).toBe(2);

    const name = 'x'.repeat(4096);
    const total = 3000;
    for (let i = 0; i < total; i++) {
      t.services.hub.publish('gallery', 'event', { name });
      // Give the sockets a turn now and then, as a real burst arrives over time.
      if (i % 16 === 15) await nextTurn();
    }
    // 12 MB were published: far more than the bound and the socket buffers together.
    expect(total * name.length).toBeGreaterThan(8 * MAX_UNREAD_BYTES);
    await expect.poll(() => t.services.hub.listenerCount('gallery')).toBe(1);
    await expect.poll(() => received, { timeout: 10_000 }).toBe(total);
    // The stalled phone, reading at last, finds its stream cut short.
    let got = 0;
    stalled.on('data', (c: Buffer) => (got += c.length));
    stalled.resume();
    await once(stalled, 'close');
    expect(got).toBeLessThan(total * name.length);
    expect(await healthz(port)).toBe(200);
    reader.destroy();
  });

  it('answers /healthz during a burst of 20,000 DbInsert, before the burst is worked through', async () => {
    const capture = new FakeCaptureApp();
    const t = await buildTestApp({ capture });
    await signIn(t.app);
    t.services.photoSync.start();
    t.services.captureLink.start();
    const port = await listen(t.app);
    // One photo a second, as a booth takes them (the stem is the capture time).
    const stem = (n: number): string => {
      const [h, m, sec] = [Math.floor(n / 3600), Math.floor(n / 60) % 60, n % 60].map((v) => String(v).padStart(2, '0'));
      return `20261122-${h}${m}${sec}-000000`;
    };
    const items: MediaItem[] = Array.from({ length: 20_000 }, (_, n) => captureItem(n, stem(n)));
    for (const item of items) capture.emit({ event: 'DbInsert', data: item });
    expect(await healthz(port)).toBe(200);
    const indexed = (t.db.prepare('SELECT COUNT(*) AS n FROM photos').get() as { n: number }).n;
    expect(indexed).toBeLessThan(items.length);
    await t.services.photoSync.live.idle();
    expect((t.db.prepare('SELECT COUNT(*) AS n FROM photos').get() as { n: number }).n).toBe(items.length);
    await t.services.photoSync.stop();
    t.services.captureLink.stop();
  }, 60_000);
});
