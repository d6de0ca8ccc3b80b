import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamSlots, defaultStreamSlots } from '../../server/core/stream-slots.js';
import { buildTestApp } from '../support/app.js';

interface Opened {
  status: number;
  body: string;
  close: () => void;
}

/** Opens a stream and resolves once its head (and, for an error, its body) has arrived. */
function open(port: number, path: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const close = (): void => {
        req.destroy();
      };
      if (res.statusCode === 200) return resolve({ status: 200, body: '', close });
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, close }));
    });
    req.on('error', reject);
  });
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('live stream caps', () => {
  it('gives one phone a few streams, then a clear 429, and frees a slot on close', async () => {
    const { app, services } = await buildTestApp();
    const server = http.createServer(app);
    // Every connection looks like the same phone on the Wi-Fi.
    server.on('connection', (socket) => Object.defineProperty(socket, 'remoteAddress', { value: '192.168.4.20' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const streams: Opened[] = [];
    cleanup = () => {
      streams.forEach((s) => s.close());
      server.closeAllConnections();
      server.close();
    };
    const port = (server.address() as AddressInfo).port;
    const perClient = services.hub.slots.options.perClient;
    for (let i = 0; i < perClient; i++) streams.push(await open(port, '/api/gallery/stream'));
    expect(streams.map((s) => s.status)).toEqual(Array(perClient).fill(200));

    const refused = await open(port, '/api/gallery/stream');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'too_many_streams' } });
    expect(services.hub.slots.open).toBe(perClient);

    streams.pop()?.close();
    await expect.poll(() => services.hub.slots.open).toBe(perClient - 1);
    const again = await open(port, '/api/gallery/stream');
    streams.push(again);
    expect(again.status).toBe(200);
  });

  it('caps all streams together well under the descriptor limit', () => {
    expect(defaultStreamSlots(1024).total).toBe(256);
    expect(defaultStreamSlots(1_048_576).total).toBe(1000);
    const slots = new StreamSlots({ perClient: 6, perLocalClient: 32, total: 10 });
    for (let i = 0; i < 10; i++) slots.acquire(`10.0.0.${i}`, false);
    expect(() => slots.acquire('10.0.0.99', false)).toThrow(/Too many live streams on the booth/);
  });
});
