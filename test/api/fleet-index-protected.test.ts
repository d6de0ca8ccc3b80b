import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, expect, it } from 'vitest';
import { startSimApp, type SimApp } from '../support/sim-app.js';

const KEY = 'ZyXwVuTsRqPoNmLkJiHg_-';
let s: SimApp | undefined;
let root: string | undefined;
afterEach(async () => {
  await s?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

it('lists a protected event in the fleet’s index by its date alone: no name, no photo count', async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-fleet-'));
  s = await startSimApp({ publish: { settleMs: 0 } });
  const admin = (method: 'post' | 'put', p: string, body: object) => request(s!.app)[method](p).set('Cookie', s!.cookie).send(body);
  expect((await admin('post', '/api/admin/events', { name: 'Mariage Discret' })).status).toBe(201);
  await s.sim.capture();
  await s.sim.capture();
  await s.services.indexer.rescan();
  expect((await admin('put', '/api/admin/publish/events/mariage-discret', { password: 'trois petits chats sur le toit' })).status).toBe(
    200,
  );
  expect(
    (
      await admin('put', '/api/admin/publish/settings', {
        destination: { type: 'local', path: root },
        booth_name: 'borne-a',
        enabled: true,
        company_index: KEY,
      })
    ).status,
  ).toBe(200);
  await s.services.publishing.queue.whenIdle();
  const text = readFileSync(path.join(root, `boothdeck-index-${KEY}`, 'borne-a.json'), 'utf8');
  const entry = JSON.parse(text) as { events: { name: string; meta: string; protected: boolean; path: string }[] };
  expect(entry.events).toEqual([
    {
      name: 'Galerie protégée',
      meta: expect.not.stringMatching(/photo/),
      path: expect.stringMatching(/^borne-a\//),
      protected: true,
    },
  ]);
  expect(text).not.toContain('Discret');
  expect(text).not.toMatch(/\b2 photos\b/);
});
