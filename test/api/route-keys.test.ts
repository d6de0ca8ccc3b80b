import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { Router } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../server/app.js';
import { keyGuard } from '../../server/auth/key.guard.js';
import { ADMIN_ROUTE_KEYS } from '../../server/auth/route-keys.js';
import { errorMiddleware } from '../../server/http/error.middleware.js';
import { listRoutePatterns } from '../../server/http/route-list.js';
import { buildTestApp, signIn, TEST_PIN } from '../support/app.js';

const EVENT_PIN = '2468';

/** Sample values for path parameters, so that every route can be called. */
const sample = (path: string): string =>
  path.replace(/:(\w+)/g, (_m, name: string) => (name === 'idx' ? '0' : name === 'slug' ? 'sample' : 'x'));

/** These end or narrow the session that calls them: walked last, so the others meet a live key. */
const ENDS_SESSION = ['DELETE /session/event-pin', 'POST /session/drop', 'DELETE /session'];
const order = (name: string): number => ENDS_SESSION.indexOf(name);

describe('every admin route with no key, the event key and the owner key', async () => {
  const t = await buildTestApp();
  const routes = listRoutePatterns(adminApi(t.services))
    .map((r) => ({ ...r, name: `${r.method} ${r.path}` }))
    .sort((a, b) => order(a.name) - order(b.name));
  let server: Server;
  let base = '';
  let owner = '';
  let renter = '';

  beforeAll(async () => {
    owner = await signIn(t.app);
    const set = await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: EVENT_PIN });
    expect(set.status).toBe(204);
    renter = await signIn(t.app, EVENT_PIN);
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Calls a route over real HTTP and reads only its status: a live stream is dropped at its headers. */
  async function statusOf(route: { method: string; path: string }, cookie?: string): Promise<{ status: number; code?: string }> {
    const withBody = !['GET', 'HEAD'].includes(route.method);
    const res = await fetch(`${base}/api/admin${sample(route.path)}`, {
      method: route.method,
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...(withBody ? { 'Content-Type': 'application/json' } : {}) },
      body: withBody ? '{}' : undefined,
    });
    const json = res.headers.get('content-type')?.includes('application/json') && res.status >= 400;
    const code = json ? ((await res.json()) as { error?: { code?: string } }).error?.code : undefined;
    if (!json) await res.body?.cancel();
    return { status: res.status, code };
  }

  it('declares every route the admin API has, and nothing it does not have', () => {
    const names = routes.map((r) => r.name);
    expect(names.length).toBeGreaterThan(60);
    expect(names.filter((n) => !(n in ADMIN_ROUTE_KEYS))).toEqual([]);
    expect(Object.keys(ADMIN_ROUTE_KEYS).filter((n) => !names.includes(n))).toEqual([]);
  });

  it('refuses every route but signing in without a session (401)', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const { status } = await statusOf(route);
      if ((ADMIN_ROUTE_KEYS[route.name] === 'public') === (status === 401)) wrong.push(`${route.name} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets the event key through its routes and answers 403 owner_key_required on the owner’s', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const { status, code } = await statusOf(route, renter);
      const needsOwner = ADMIN_ROUTE_KEYS[route.name] === 'owner';
      if (needsOwner ? status !== 403 || code !== 'owner_key_required' : status === 401 || code === 'owner_key_required')
        wrong.push(`${route.name} → ${status} ${code ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets the owner key through every route', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const { status, code } = await statusOf(route, owner);
      if (status === 401 || code === 'owner_key_required' || code === 'route_key_undeclared')
        wrong.push(`${route.name} → ${status} ${code ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('a route the table does not declare', async () => {
  const t = await buildTestApp();
  const cookie = await signIn(t.app);
  const extra = Router();
  extra.get('/extra', (_req, res) => {
    res.json({ ran: true });
  });
  const app = express();
  app.use('/api/admin', keyGuard(t.services.auth, ADMIN_ROUTE_KEYS, listRoutePatterns(extra)), extra);
  app.use(errorMiddleware(() => undefined));

  it('is refused even with the owner key, and never runs', async () => {
    const res = await request(app).get('/api/admin/extra').set('Cookie', cookie);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('route_key_undeclared');
  });

  it('answers 401 without a session and 404 for a path that is no route', async () => {
    expect((await request(app).get('/api/admin/extra')).status).toBe(401);
    expect((await request(app).get('/api/admin/nothing').set('Cookie', cookie)).status).toBe(404);
  });

  it('takes the strictest declaration when two match, in any spelling Express routes', async () => {
    const renter = await buildTestApp();
    const owner = await signIn(renter.app);
    await request(renter.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: EVENT_PIN });
    const event = await signIn(renter.app, EVENT_PIN);
    for (const path of ['/api/admin/actions/presets', '/api/admin/ACTIONS/presets/', '/api/admin/actions']) {
      const res = await request(renter.app).get(path).set('Cookie', event);
      expect(res.status, path).toBe(403);
    }
    expect(TEST_PIN).not.toBe(EVENT_PIN);
  });
});
