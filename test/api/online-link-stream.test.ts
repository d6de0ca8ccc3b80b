import { mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OnlineLink } from '../../server/contract/publish.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { nextStreamMessage } from '../support/stream.js';

let t: SimApp;
let server: http.Server;
let base: string;
let root: string;

beforeEach(async () => {
  t = await startSimApp({ publish: { settleMs: 0 } });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-online-'));
});
afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const admin = (method: 'post' | 'put' | 'delete', p: string, body?: object) =>
  request(t.app)[method](`/api/admin${p}`).set('Cookie', t.cookie).send(body);

/** The next address an open public gallery is told that `wanted` accepts. */
async function announced(wanted: (link: OnlineLink) => boolean): Promise<{ link: Promise<OnlineLink>; close: () => void }> {
  const stream = nextStreamMessage(`${base}/api/gallery/stream`, (m) => m.event === 'online' && wanted(JSON.parse(m.data) as OnlineLink));
  await stream.opened;
  return { link: stream.message.then((m) => JSON.parse(m.data) as OnlineLink), close: stream.close };
}

describe("an open public gallery hears of the event's address online", () => {
  it('when the event goes online, when another event becomes current, and when it is withdrawn', async () => {
    expect((await admin('post', '/events', { name: 'Gala' })).status).toBe(201);
    await t.sim.capture();
    await t.services.indexer.rescan();

    const online = await announced((l) => l.url !== null);
    await admin('put', '/publish/settings', {
      destination: { type: 'local', path: root },
      booth_name: 'booth-1',
      public_base_url: 'https://photos.example.com/galeries',
      enabled: true,
    });
    const first = await online.link;
    expect(first.url).toMatch(/^https:\/\/photos\.example\.com\/galeries\/booth-1\/[A-Za-z0-9_-]{22}\/$/);
    expect(first.svg).toContain('<svg');
    // What a phone opening the gallery now reads is what the others were told.
    expect((await request(t.app).get('/api/gallery/online')).body).toEqual(first);

    // Another event made current: its own address once the queue has put it online.
    const next = await announced((l) => l.url !== null && l.url !== first.url);
    expect((await admin('post', '/events', { name: 'Après' })).status).toBe(201);
    const second = await next.link;
    expect(second.url).toMatch(/^https:\/\/photos\.example\.com\/galeries\/booth-1\//);

    // Withdrawn by the operator: the card goes from every open gallery.
    const gone = await announced((l) => l.url === null);
    expect((await admin('delete', '/publish/events/apres')).status).toBe(202);
    expect(await gone.link).toEqual({ url: null, svg: null });
  });
});
