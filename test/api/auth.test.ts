import http from 'node:http';
import type { Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { TEST_PIN, buildTestApp, signIn } from '../support/app.js';

/** A server whose sockets look like a phone's on the Wi-Fi: all the limiter can see. */
function asNetworkClient(app: Express): http.Server {
  const server = http.createServer(app);
  server.on('connection', (socket) => Object.defineProperty(socket, 'remoteAddress', { value: '192.168.1.20' }));
  return server;
}

describe('admin sign-in', () => {
  it('starts signed out and says a PIN is set', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/api/admin/session');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ authenticated: false, pin_set: true, first_run_allowed: false });
  });

  it('opens a session with the right PIN, in an HttpOnly SameSite=Strict cookie', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post('/api/admin/session').send({ pin: TEST_PIN });
    expect(res.status).toBe(204);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/bd_session=[\w-]{40,}/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = cookie.split(';')[0] ?? '';
    const status = await request(app).get('/api/admin/session').set('Cookie', session);
    expect(status.body.authenticated).toBe(true);
    expect((await request(app).get('/api/admin/status').set('Cookie', session)).status).toBe(200);
  });

  it('refuses a wrong PIN with 401 and no cookie', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post('/api/admin/session').send({ pin: '0000' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs out: the cookie no longer opens admin routes', async () => {
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    expect((await request(app).delete('/api/admin/session').set('Cookie', cookie)).status).toBe(204);
    expect((await request(app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(401);
  });

  it('rate-limits wrong PINs per network client with 429 and Retry-After, even for the right PIN', async () => {
    const { app: express, clock } = await buildTestApp();
    const app = asNetworkClient(express);
    for (let i = 0; i < 5; i++) expect((await request(app).post('/api/admin/session').send({ pin: '9999' })).status).toBe(401);
    const blocked = await request(app).post('/api/admin/session').send({ pin: TEST_PIN });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    clock.advance(retryAfter * 1000);
    expect((await request(app).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(204);
  });

  it('makes the booth itself wait seconds, not minutes, after wrong PINs', async () => {
    const { app, clock } = await buildTestApp();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      expect((await request(app).post('/api/admin/session').send({ pin: '9999' })).status).toBe(401);
      const blocked = await request(app).post('/api/admin/session').send({ pin: TEST_PIN });
      expect(blocked.status).toBe(429);
      waits.push(Number(blocked.headers['retry-after']));
      clock.advance(waits[i]! * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30]);
    expect((await request(app).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(204);
  });

  it('ends a session left idle on the server side', async () => {
    const { app, clock } = await buildTestApp({ auth: { sessionIdleMs: 10 * 60_000 } });
    const cookie = await signIn(app);
    clock.advance(9 * 60_000);
    expect((await request(app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(200);
    clock.advance(9 * 60_000);
    expect((await request(app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(200);
    clock.advance(11 * 60_000);
    expect((await request(app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(401);
  });

  it('changes the PIN only with the current one, and signs out other sessions', async () => {
    const { app, clock } = await buildTestApp();
    const mine = await signIn(app);
    const other = await signIn(app);
    const wrong = await request(app).put('/api/admin/session/pin').set('Cookie', mine).send({ current_pin: '1111', new_pin: '5555' });
    expect(wrong.status).toBe(403);
    clock.advance(1000); // the booth waits a second after a wrong PIN
    const ok = await request(app).put('/api/admin/session/pin').set('Cookie', mine).send({ current_pin: TEST_PIN, new_pin: '5555' });
    expect(ok.status).toBe(204);
    expect((await request(app).get('/api/admin/status').set('Cookie', mine)).status).toBe(200);
    expect((await request(app).get('/api/admin/status').set('Cookie', other)).status).toBe(401);
    expect((await request(app).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(401);
    clock.advance(1000);
    expect((await request(app).post('/api/admin/session').send({ pin: '5555' })).status).toBe(204);
  });

  it('refuses a state-changing request whose Origin names another host', async () => {
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    const res = await request(app).delete('/api/admin/session').set('Cookie', cookie).set('Origin', 'http://evil.example');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin');
    expect((await request(app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(200);
  });

  it('accepts the same request from the console’s own origin', async () => {
    const { app } = await buildTestApp();
    const res = await request(app)
      .post('/api/admin/session')
      .set('Host', 'localhost:8080')
      .set('Origin', 'http://localhost:8080')
      .send({ pin: TEST_PIN });
    expect(res.status).toBe(204);
  });
});

describe('first run', () => {
  it('lets a client at the booth choose the first PIN, once', async () => {
    const { app } = await buildTestApp({ pin: null });
    const status = await request(app).get('/api/admin/session');
    expect(status.body).toMatchObject({ pin_set: false, first_run_allowed: true });
    expect((await request(app).post('/api/admin/session').send({ pin: '1234' })).status).toBe(409);
    const set = await request(app).post('/api/admin/session/pin').send({ pin: '7777' });
    expect(set.status).toBe(204);
    expect(String(set.headers['set-cookie'])).toMatch(/bd_session=/);
    expect((await request(app).post('/api/admin/session/pin').send({ pin: '8888' })).status).toBe(409);
    expect((await request(app).post('/api/admin/session').send({ pin: '7777' })).status).toBe(204);
  });

  it('refuses a first PIN that is not 4 to 8 digits', async () => {
    const { app } = await buildTestApp({ pin: null });
    const res = await request(app).post('/api/admin/session/pin').send({ pin: '12ab' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/pin/);
    expect((await request(app).get('/api/admin/session')).body.pin_set).toBe(false);
  });
});

describe('guessing the PIN in parallel', () => {
  it('counts attempts before checking them: a burst of guesses gets 5 tries, then 429', async () => {
    const { app: express } = await buildTestApp();
    const app = asNetworkClient(express);
    const guesses = Array.from({ length: 20 }, (_, i) => String(1000 + i));
    const results = await Promise.all([...guesses, TEST_PIN].map((pin) => request(app).post('/api/admin/session').send({ pin })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(16);
    expect(statuses.at(-1)).toBe(429);
  });
});
