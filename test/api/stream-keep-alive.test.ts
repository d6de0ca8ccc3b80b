import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Request, Response } from 'express';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { EventHub, KEEP_ALIVE_MS } from '../../server/core/event-hub.js';
import { streamChannel } from '../../server/http/sse.js';
import { buildTestApp } from '../support/app.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))));
});

/** A phone holding the gallery's live stream: what it has received so far, as text. */
async function phone(port: number): Promise<{ text: () => string; close: () => Promise<void> }> {
  let text = '';
  const req = http.get({ host: '127.0.0.1', port, path: '/api/gallery/stream', agent: false });
  const [res] = (await once(req, 'response')) as [http.IncomingMessage];
  // The phone leaving cuts its own response short: that is expected.
  res.on('error', () => undefined);
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  await until(() => text.includes('retry:'));
  return {
    text: () => text,
    close: async () => {
      const gone = new Promise((resolve) => res.on('close', resolve));
      req.destroy();
      await gone;
    },
  };
}

/** Lets the sockets turn until `ok` holds: the bytes travel through the loopback, not through time. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !ok(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(ok()).toBe(true);
}

const keepAlives = (text: string): number => text.split(': keep-alive').length - 1;

describe('the live streams’ keep-alive', () => {
  it('one timer for every open stream, a comment only to a stream silent for the interval, and no timer once all have closed', async () => {
    const t = await buildTestApp();
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const timersAtRest = t.clock.pendingCount;

    const phones = await Promise.all(Array.from({ length: 3 }, () => phone(port)));
    expect(t.services.hub.keepAlive.size).toBe(3);
    // Three streams, one timer.
    expect(t.clock.pendingCount - timersAtRest).toBe(1);

    // Just under the interval: no stream has been silent for it yet.
    t.clock.advance(KEEP_ALIVE_MS - 1000);
    await nextTurn();
    // An event reaches every stream; then the interval passes with nothing else.
    t.services.hub.publish('gallery', 'event', { name: 'Soirée' });
    await until(() => phones.every((p) => p.text().includes('event: event')));
    expect(phones.map((p) => keepAlives(p.text()))).toEqual([0, 0, 0]);
    t.clock.advance(1000);
    await nextTurn();
    t.clock.advance(KEEP_ALIVE_MS);
    await until(() => phones.every((p) => keepAlives(p.text()) === 1));

    // A phone that arrives later is kept alive on the same beat as the others.
    const late = await phone(port);
    expect(t.clock.pendingCount - timersAtRest).toBe(1);
    t.clock.advance(KEEP_ALIVE_MS);
    await until(() => keepAlives(late.text()) === 1 && phones.every((p) => keepAlives(p.text()) === 2));

    for (const p of [...phones, late]) await p.close();
    await until(() => t.services.hub.keepAlive.size === 0);
    // Nobody looks: no timer runs for the streams.
    expect(t.clock.pendingCount).toBe(timersAtRest);
  });

  it('never leaves a stream silent longer than the interval, whenever its last event came', () => {
    const clock = new FakeClock();
    const hub = new EventHub(undefined, clock);
    // A response that notes, on the fake clock, when anything was written to it.
    const writes: number[] = [];
    const res = Object.assign(new EventEmitter(), {
      destroyed: false,
      writableLength: 0,
      writeHead: () => undefined,
      write: () => writes.push(clock.monotonic()),
    });
    const req = Object.assign(new EventEmitter(), { socket: { remoteAddress: '192.168.4.50' } });
    streamChannel(hub, 'gallery', req as unknown as Request, res as unknown as Response);
    const step = KEEP_ALIVE_MS / 10;
    const start = clock.monotonic();
    for (let i = 1; i <= 60; i++) {
      // Events now and then, at moments that fall anywhere between two beats.
      if (i % 7 === 0) hub.publish('gallery', 'event', { name: `n${i}` });
      clock.advance(step);
    }
    const gaps = [...writes, clock.monotonic()].map((at, i, all) => at - (i === 0 ? start : (all[i - 1] as number)));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(KEEP_ALIVE_MS);
    // Comments went only where events did not: fewer writes than a comment every interval plus the events.
    expect(writes.length).toBeLessThan(1 + 8 + 60 / 10);
    res.emit('close');
    expect(hub.keepAlive.size).toBe(0);
    expect(clock.pendingCount).toBe(0);
  });
});
