import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_FIELD_NAMES } from '../../server/actions/action.fields.js';
import { signedInApp, type TestApp } from '../support/app.js';
import { PROTOTYPE_NAMES, badBodies, type BadBody } from '../support/bad-bodies.js';

const CORPUS = 1000;

let t: TestApp;
let cookie: string;
let server: http.Server;
let base: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

beforeAll(async () => {
  ({ t, cookie } = await signedInApp());
  server = http.createServer(t.app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends one body over a kept-alive connection; resolves with the status and the body text. */
function send(method: string, path: string, body: BadBody): Promise<{ status: number; text: string }> {
  const text = 'raw' in body ? body.raw : JSON.stringify(body.json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method, agent, headers: { 'Content-Type': 'application/json', Cookie: cookie, 'Content-Length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function run(method: string, path: string, bodies: readonly BadBody[]): Promise<{ body: BadBody; status: number; text: string }[]> {
  const failures: { body: BadBody; status: number; text: string }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const body = bodies[next++] as BadBody;
      const res = await send(method, path, body);
      if (res.status >= 500) failures.push({ body, ...res });
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return failures;
}

const groups = [...new Set([...ALL_FIELD_NAMES].map((n) => n.split('.')[0] as string))];
const actionKeys = [...ALL_FIELD_NAMES, ...groups, 'general.kind'];
const settingsKeys = ['hardware', 'print', 'gallery', 'relay', 'led', 'flash', 'gpio', 'inverted', 'quota', 'enable', 'max_copies'];
const backupKeys = ['format', 'version', 'created_at', 'settings', 'actions', 'presets', 'kind', 'entry', 'name', 'description'];

/** Every write route Boothdeck has, with the names its body is made of. */
const ROUTES: { method: string; path: string; keys: readonly string[] }[] = [
  { method: 'PUT', path: '/api/admin/actions/0', keys: actionKeys },
  { method: 'POST', path: '/api/admin/actions/create', keys: actionKeys },
  { method: 'PUT', path: '/api/admin/actions/reorder', keys: ['order'] },
  { method: 'POST', path: '/api/admin/actions/presets', keys: ['name', 'description'] },
  { method: 'POST', path: '/api/admin/events', keys: ['name', 'welcome'] },
  { method: 'PUT', path: '/api/admin/settings', keys: settingsKeys },
  { method: 'POST', path: '/api/admin/backup', keys: backupKeys },
  { method: 'POST', path: '/api/admin/hardware/test/relay', keys: ['ms'] },
  { method: 'POST', path: '/api/admin/hardware/test/led', keys: ['color'] },
  { method: 'POST', path: '/api/admin/hardware/test/countdown', keys: ['seconds'] },
  { method: 'PUT', path: '/api/admin/session/pin', keys: ['current_pin', 'new_pin'] },
  { method: 'POST', path: '/api/admin/print/counters/reset', keys: ['scope', 'session'] },
  { method: 'POST', path: '/api/gallery/photos/x/print', keys: ['copies'] },
];

describe('a generated corpus of bad bodies', () => {
  it('answers every field name an object inherits with 400 on the action routes, never 500', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const body of [`{${JSON.stringify(name)}:"x"}`, `{${JSON.stringify(name)}:{}}`, `{"ui_trigger":{${JSON.stringify(name)}:1}}`]) {
        for (const [method, path] of [
          ['put', '/api/admin/actions/0'],
          ['post', '/api/admin/actions/create'],
        ] as const) {
          const res = await request(t.app)[method](path).set('Cookie', cookie).set('Content-Type', 'application/json').send(body);
          expect(res.status, `${path} ${body}`).toBe(400);
          expect(res.body.error.message).toMatch(/unknown field|Invalid/);
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(ROUTES)(
    '$method $path: no 5xx over 1,000 bad bodies',
    async ({ method, path, keys }) => {
      const bodies = badBodies({ keys, count: CORPUS, seed: path.length * 7919 });
      expect(bodies.length).toBeGreaterThanOrEqual(CORPUS);
      const failures = await run(method, path, bodies);
      expect(failures.slice(0, 5).map((f) => `${f.status} ${JSON.stringify(f.body)} → ${f.text.slice(0, 200)}`)).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((await request(t.app).get('/healthz')).status).toBe(200);
    },
    120_000,
  );
});
