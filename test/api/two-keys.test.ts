import http from 'node:http';
import type { Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { TEST_PIN, buildTestApp, signIn, type TestApp } from '../support/app.js';

const EVENT_PIN = '2468';

/** A booth with both PINs set: the owner's session and the renter's. */
async function twoKeys(): Promise<{ t: TestApp; owner: string; renter: string }> {
  const t = await buildTestApp();
  const owner = await signIn(t.app);
  expect((await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: EVENT_PIN })).status).toBe(204);
  return { t, owner, renter: await signIn(t.app, EVENT_PIN) };
}

const statusOf = async (app: Express, cookie: string) => (await request(app).get('/api/admin/session').set('Cookie', cookie)).body;
const reorder = (app: Express, cookie: string) => request(app).put('/api/admin/actions/reorder').set('Cookie', cookie).send({ order: [] });

describe('the event key and the owner key', () => {
  it('gives each PIN a session of its level, and says whether an event PIN is set', async () => {
    const t = await buildTestApp();
    const owner = await signIn(t.app);
    expect(await statusOf(t.app, owner)).toMatchObject({
      authenticated: true,
      level: 'owner',
      event_pin_set: false,
      owner_idle_seconds: 120,
      owner_max_seconds: 900,
    });
    await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: EVENT_PIN });
    const renter = await signIn(t.app, EVENT_PIN);
    expect(await statusOf(t.app, renter)).toMatchObject({ authenticated: true, level: 'event', event_pin_set: true });
    expect((await request(t.app).get('/api/admin/session')).body).toMatchObject({ authenticated: false, level: null });
  });

  it('refuses an owner-only route to the event key with 403 owner_key_required, and runs nothing', async () => {
    const { t, renter } = await twoKeys();
    const res = await request(t.app).post('/api/admin/system/reboot').set('Cookie', renter);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('owner_key_required');
    expect(t.system.calls).toEqual([]);
  });

  it('elevates the same session with the owner PIN, then drops back after two idle minutes', async () => {
    const { t, renter } = await twoKeys();
    expect((await request(t.app).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: TEST_PIN })).status).toBe(204);
    expect((await statusOf(t.app, renter)).level).toBe('owner');
    expect((await reorder(t.app, renter)).status).not.toBe(403);
    // Each use of the owner's key slides its window; requests of the event key do not.
    t.clock.advance(100_000);
    expect((await reorder(t.app, renter)).status).not.toBe(403);
    t.clock.advance(100_000);
    expect((await request(t.app).get('/api/admin/events').set('Cookie', renter)).status).toBe(200);
    t.clock.advance(20_000);
    expect((await reorder(t.app, renter)).body.error?.code).toBe('owner_key_required');
    expect(await statusOf(t.app, renter)).toMatchObject({ authenticated: true, level: 'event' });
  });

  it('drops the owner key on request, and also a session signed in with the owner PIN', async () => {
    const { t, owner } = await twoKeys();
    expect((await request(t.app).post('/api/admin/session/drop').set('Cookie', owner)).status).toBe(204);
    expect((await statusOf(t.app, owner)).level).toBe('event');
    expect((await reorder(t.app, owner)).status).toBe(403);
  });

  it('refuses a wrong owner PIN with 403 wrong_pin (the session stays), counted by the same limit as sign-in', async () => {
    const { t, renter } = await twoKeys();
    const wrong = await request(t.app).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: EVENT_PIN });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('wrong_pin');
    expect(wrong.body.error.details).toEqual({ retry_after_seconds: 1 });
    // The booth waits after a wrong PIN, whichever door it was typed at.
    expect((await request(t.app).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(429);
    expect((await request(t.app).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: TEST_PIN })).status).toBe(429);
    t.clock.advance(1000);
    expect((await request(t.app).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: TEST_PIN })).status).toBe(204);
  });

  it('rate-limits guesses of the owner PIN from a network client like sign-in guesses', async () => {
    const { t, renter } = await twoKeys();
    const server = http.createServer(t.app);
    server.on('connection', (socket) => Object.defineProperty(socket, 'remoteAddress', { value: '192.168.1.20' }));
    for (let i = 0; i < 5; i++)
      expect((await request(server).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: '9999' })).status).toBe(403);
    expect((await request(server).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: TEST_PIN })).status).toBe(429);
    expect((await request(server).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(429);
  });

  it('comes back with the event key after a restart: the owner key lives only in memory', async () => {
    const { t, owner } = await twoKeys();
    // A new service on the same database: the session row is adopted, the owner key is not.
    const { AuthService } = await import('../../server/auth/auth.service.js');
    const { SessionRepository } = await import('../../server/auth/session.repository.js');
    const { SettingsRepository } = await import('../../server/settings/settings.repository.js');
    const { AttemptLimiter } = await import('../../server/auth/attempt-limiter.js');
    const auth = new AuthService(new SettingsRepository(t.db), new SessionRepository(t.db), new AttemptLimiter(t.clock), t.clock);
    const token = decodeURIComponent(owner.split('=')[1] ?? '');
    expect(auth.level(token)).toBe('event');
  });

  it('sets, replaces and removes the event PIN with the owner key only, signing out whoever held the old one', async () => {
    const { t, owner, renter } = await twoKeys();
    expect((await request(t.app).put('/api/admin/session/event-pin').set('Cookie', renter).send({ pin: '1357' })).status).toBe(403);
    const same = await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: TEST_PIN });
    expect(same.status).toBe(409);
    expect(same.body.error.code).toBe('pin_same_as_owner');
    expect((await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: '12' })).status).toBe(400);
    expect((await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: '1357' })).status).toBe(204);
    expect((await statusOf(t.app, renter)).authenticated).toBe(false);
    expect((await request(t.app).post('/api/admin/session').send({ pin: EVENT_PIN })).status).toBe(401);
    t.clock.advance(1000); // the booth's wait after a wrong PIN
    const next = await signIn(t.app, '1357');
    expect((await request(t.app).delete('/api/admin/session/event-pin').set('Cookie', owner)).status).toBe(204);
    expect((await statusOf(t.app, next)).authenticated).toBe(false);
    expect((await statusOf(t.app, owner)).event_pin_set).toBe(false);
  });

  it('keeps the owner PIN apart from the event PIN when it changes', async () => {
    const { t, owner } = await twoKeys();
    await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: '246813' });
    const res = await request(t.app).put('/api/admin/session/pin').set('Cookie', owner).send({ current_pin: TEST_PIN, new_pin: '246813' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('pin_same_as_event');
  });

  it('drops an event PIN equal to the owner PIN given at start', async () => {
    const { t } = await twoKeys();
    await t.services.auth.applyConfiguredPin(EVENT_PIN);
    expect(t.services.auth.isEventPinSet()).toBe(false);
    expect((await statusOf(t.app, await signIn(t.app, EVENT_PIN))).level).toBe('owner');
  });
});

describe('settings, field by field', () => {
  const put = (app: Express, cookie: string, body: object) => request(app).put('/api/admin/settings').set('Cookie', cookie).send(body);

  it('lets the event key change the quota, the copies, the layout and the delete button', async () => {
    const { t, renter } = await twoKeys();
    const res = await put(t.app, renter, { print: { quota: 3, max_copies: 2, layout: 'fit' }, gallery: { show_delete: false } });
    expect(res.status).toBe(200);
    expect(res.body.print).toMatchObject({ quota: 3, max_copies: 2, layout: 'fit' });
  });

  it('takes a whole section back from the event key when only its fields changed', async () => {
    const { t, renter } = await twoKeys();
    const print = (await request(t.app).get('/api/admin/settings').set('Cookie', renter)).body.print;
    expect((await put(t.app, renter, { print: { ...print, quota: 2 } })).status).toBe(200);
  });

  it('refuses the owner’s fields to the event key, naming them, and changes nothing', async () => {
    const { t, renter } = await twoKeys();
    const before = (await request(t.app).get('/api/admin/settings').set('Cookie', renter)).body;
    const res = await put(t.app, renter, { print: { enable: false, quota: 1, limits: { quota: 999 } }, hardware: { led: { count: 40 } } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('owner_key_required');
    expect(res.body.error.details.fields.sort()).toEqual(['hardware.led.count', 'print.enable', 'print.limits.quota']);
    expect((await request(t.app).get('/api/admin/settings').set('Cookie', renter)).body).toEqual(before);
    for (const body of [
      { gallery: { public_url: 'http://photos.example' } },
      { print: { printer: 'PDF' } },
      { print: { sessions_per_address: 5 } },
    ])
      expect((await put(t.app, renter, body)).status).toBe(403);
  });

  it('keeps the event key within the owner’s limits, and a lowered limit brings the value down', async () => {
    const { t, owner, renter } = await twoKeys();
    const over = await put(t.app, renter, { print: { quota: 21 } });
    expect(over.status).toBe(400);
    expect(over.body.error.details.issues).toEqual([{ field: 'print.quota', message: "must be at most 20 (the owner's limit)" }]);
    expect((await put(t.app, renter, { print: { max_copies: 6 } })).status).toBe(400);
    expect((await put(t.app, renter, { print: { quota: 20, max_copies: 5 } })).status).toBe(200);
    const lowered = await put(t.app, owner, { print: { limits: { quota: 4, max_copies: 2 } } });
    expect(lowered.body.print).toMatchObject({ quota: 4, max_copies: 2, limits: { quota: 4, max_copies: 2 } });
  });

  it('gives settings saved before the limits existed limits that keep what they allowed', async () => {
    const t = await buildTestApp();
    const { SETTINGS_KEY } = await import('../../server/settings/settings.service.js');
    const { SettingsRepository } = await import('../../server/settings/settings.repository.js');
    new SettingsRepository(t.db).set(SETTINGS_KEY, { print: { quota: 50, max_copies: 3 } });
    expect(t.services.settings.stored().print).toMatchObject({ quota: 50, max_copies: 3, limits: { quota: 50, max_copies: 5 } });
  });
});
