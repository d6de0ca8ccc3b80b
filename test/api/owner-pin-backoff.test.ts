import http from 'node:http';
import type { Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AttemptLimiter, localDelayMs } from '../../server/auth/attempt-limiter.js';
import { AuthService } from '../../server/auth/auth.service.js';
import { SessionRepository } from '../../server/auth/session.repository.js';
import { SettingsRepository } from '../../server/settings/settings.repository.js';
import { TEST_PIN, buildTestApp, signIn, type TestApp } from '../support/app.js';

const EVENT_PIN = '2468';
/** Guesses at the owner's PIN: none of them is either PIN. */
const guess = (i: number): string => String(900_000 + i);

/** A server whose every connection comes from `address`: a phone on the booth's Wi-Fi. */
function from(app: Express, address: string): http.Server {
  const server = http.createServer(app);
  server.on('connection', (socket) => Object.defineProperty(socket, 'remoteAddress', { value: address }));
  return server;
}

async function renterBooth(): Promise<{ t: TestApp; owner: string }> {
  const t = await buildTestApp();
  const owner = await signIn(t.app);
  expect((await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: EVENT_PIN })).status).toBe(204);
  return { t, owner };
}

const statusOf = async (app: Express | http.Server, cookie: string) =>
  (await request(app).get('/api/admin/session').set('Cookie', cookie)).body;

describe('guessing the owner PIN between sign-ins with the event PIN', () => {
  it('meets the owner’s backoff from the sixth wrong owner PIN at the booth, while the event PIN still opens the console', async () => {
    const { t } = await renterBooth();
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      // The renter's own PIN, typed right between guesses, used to wipe the failures out.
      const renter = await signIn(t.app, EVENT_PIN);
      const res = await request(t.app)
        .post('/api/admin/session/elevate')
        .set('Cookie', renter)
        .send({ pin: guess(i) });
      outcomes.push(res.body.error.code);
      // The booth's own short wait after each wrong PIN (1, 2, 4… s) is waited out, and no more.
      if (i < 5) t.clock.advance(localDelayMs(i + 1));
    }
    expect(outcomes).toEqual(['wrong_pin', 'wrong_pin', 'wrong_pin', 'wrong_pin', 'wrong_pin', 'owner_pin_resting']);
    // Even the right owner PIN is not checked meanwhile, at either door of the booth's screen.
    const renter = await signIn(t.app, EVENT_PIN);
    const elevate = await request(t.app).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: TEST_PIN });
    expect(elevate.status).toBe(429);
    expect(elevate.body.error.code).toBe('owner_pin_resting');
    const signInOwner = await request(t.app).post('/api/admin/session').send({ pin: TEST_PIN });
    expect(signInOwner.status).toBe(401);
    expect(signInOwner.body.error.code).toBe('owner_pin_resting');
    expect((await statusOf(t.app, renter)).level).toBe('event');
  });

  it('counts wrong PINs typed at sign-in as owner guesses too', async () => {
    const { t } = await renterBooth();
    for (let i = 0; i < 5; i++) {
      await signIn(t.app, EVENT_PIN);
      const res = await request(t.app)
        .post('/api/admin/session')
        .send({ pin: guess(i) });
      expect(res.status).toBe(401);
      t.clock.advance(localDelayMs(i + 1));
    }
    const res = await request(t.app).post('/api/admin/session').send({ pin: TEST_PIN });
    expect(res.body.error.code).toBe('owner_pin_resting');
    expect(res.body.error.details.owner_retry_after_seconds).toBeGreaterThan(0);
  });

  it('meets it on the LAN too, however many addresses the guesses come from', async () => {
    const { t } = await renterBooth();
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      // A fresh address for every guess: the per-client limit never sees more than one.
      const phone = from(t.app, `192.168.1.${20 + i}`);
      const renter = await signIn(phone as unknown as Express, EVENT_PIN);
      const res = await request(phone)
        .post('/api/admin/session/elevate')
        .set('Cookie', renter)
        .send({ pin: guess(i) });
      codes.push(res.body.error.code);
    }
    expect(codes).toEqual(['wrong_pin', 'wrong_pin', 'wrong_pin', 'wrong_pin', 'wrong_pin', 'owner_pin_resting']);
    const phone = from(t.app, '192.168.1.99');
    expect((await request(phone).post('/api/admin/session').send({ pin: TEST_PIN })).body.error.code).toBe('owner_pin_resting');
    expect((await request(phone).post('/api/admin/session').send({ pin: EVENT_PIN })).status).toBe(204);
    // The Wi-Fi's guesses never make the owner wait at the booth's own screen.
    expect((await request(t.app).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(204);
  });

  it('doubles the wait with each further wrong owner PIN, up to 15 minutes', async () => {
    const { t } = await renterBooth();
    const phone = (i: number) => from(t.app, `10.0.${i}.1`);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await request(phone(i))
        .post('/api/admin/session')
        .send({ pin: guess(i) });
      expect(res.status).toBe(401);
      const wait = Number(res.body.error.details?.owner_retry_after_seconds ?? 0);
      if (wait > 0) waits.push(wait);
      t.clock.advance(wait * 1000);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
  });

  it('keeps the count and the wait across a restart, even with the wall clock set back', async () => {
    const { t } = await renterBooth();
    for (let i = 0; i < 5; i++) {
      const res = await request(from(t.app, `10.1.${i}.1`))
        .post('/api/admin/session')
        .send({ pin: guess(i) });
      expect(res.status).toBe(401);
    }
    // The plug pulled: a new service on the same database, its clock an hour behind.
    t.clock.stepWall(-60 * 60_000);
    const fresh = new AuthService(new SettingsRepository(t.db), new SessionRepository(t.db), new AttemptLimiter(t.clock), t.clock);
    const network = { address: '10.2.0.1', isLocal: false };
    await expect(fresh.signIn(TEST_PIN, network)).rejects.toMatchObject({ code: 'owner_pin_resting' });
    t.clock.advance(31_000);
    expect(await fresh.signIn(TEST_PIN, network)).toMatch(/^[\w-]{40,}$/);
  });

  it('keeps the count across a restart with the wall clock set a day forward: only the wait is taken as over', async () => {
    const { t } = await renterBooth();
    for (let i = 0; i < 5; i++) {
      const res = await request(from(t.app, `10.4.${i}.1`))
        .post('/api/admin/session')
        .send({ pin: guess(i) });
      expect(res.status).toBe(401);
    }
    // The plug pulled, and the booth comes back with its clock a day ahead (a time server it was given, a wrong date typed).
    t.clock.stepWall(25 * 60 * 60_000);
    const fresh = new AuthService(new SettingsRepository(t.db), new SessionRepository(t.db), new AttemptLimiter(t.clock), t.clock);
    const network = (i: number) => ({ address: `10.5.${i}.1`, isLocal: false });
    // The wait read on the wall clock is over; the five wrong PINs before it still count.
    await expect(fresh.signIn(guess(5), network(0))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(fresh.signIn(TEST_PIN, network(1))).rejects.toMatchObject({ code: 'owner_pin_resting' });
  });

  it('checks five of twenty guesses sent at once from twenty addresses, and none after', async () => {
    const { t } = await renterBooth();
    const auth = new AuthService(new SettingsRepository(t.db), new SessionRepository(t.db), new AttemptLimiter(t.clock), t.clock);
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        auth.signIn(guess(i), { address: `10.6.${i}.1`, isLocal: false }).then(
          () => 'opened',
          (err: { code: string }) => err.code,
        ),
      ),
    );
    expect(codes.filter((c) => c === 'unauthorized')).toHaveLength(5);
    expect(codes.filter((c) => c === 'owner_pin_resting')).toHaveLength(15);
    await expect(auth.signIn(TEST_PIN, { address: '10.6.99.1', isLocal: false })).rejects.toMatchObject({ code: 'owner_pin_resting' });
  });

  it('shows the owner how many wrong PINs were typed since their last visit, once', async () => {
    const { t } = await renterBooth();
    for (let i = 0; i < 3; i++) {
      const res = await request(from(t.app, `10.3.${i}.1`))
        .post('/api/admin/session')
        .send({ pin: guess(i) });
      expect(res.status).toBe(401);
    }
    const renter = await signIn(t.app, EVENT_PIN);
    expect(
      (
        await request(t.app)
          .post('/api/admin/session/elevate')
          .set('Cookie', renter)
          .send({ pin: guess(9) })
      ).status,
    ).toBe(403);
    // The renter is never told.
    expect((await statusOf(t.app, renter)).owner_failures).toBeUndefined();
    t.clock.advance(1000);
    const owner = await signIn(t.app);
    expect((await statusOf(t.app, owner)).owner_failures).toEqual({
      booth: 1,
      network: 3,
      last_at: new Date(t.clock.now() - 1000).toISOString(),
    });
    const next = await signIn(t.app);
    expect((await statusOf(t.app, next)).owner_failures).toBeUndefined();
  });
});

describe('the owner PIN’s length beside an event PIN', () => {
  it('flags a short owner PIN to the owner once an event PIN exists, until it is changed to 6 digits or more', async () => {
    const t = await buildTestApp();
    const owner = await signIn(t.app);
    expect((await statusOf(t.app, owner)).owner_pin_short).toBe(false);
    await request(t.app).put('/api/admin/session/event-pin').set('Cookie', owner).send({ pin: EVENT_PIN });
    expect((await statusOf(t.app, owner)).owner_pin_short).toBe(true);
    // The renter never learns it.
    expect((await statusOf(t.app, await signIn(t.app, EVENT_PIN))).owner_pin_short).toBeUndefined();
    const short = await request(t.app).put('/api/admin/session/pin').set('Cookie', owner).send({ current_pin: TEST_PIN, new_pin: '13579' });
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe('owner_pin_too_short');
    expect((await request(t.app).post('/api/admin/session').send({ pin: TEST_PIN })).status).toBe(204);
    const long = await request(t.app).put('/api/admin/session/pin').set('Cookie', owner).send({ current_pin: TEST_PIN, new_pin: '135791' });
    expect(long.status).toBe(204);
    expect((await statusOf(t.app, owner)).owner_pin_short).toBe(false);
  });

  it('learns that a PIN set before the flag existed is short the next time the owner types it', async () => {
    const { t } = await renterBooth();
    t.db.prepare("DELETE FROM settings WHERE key = 'admin.pin_short'").run();
    const owner = await signIn(t.app);
    expect((await statusOf(t.app, owner)).owner_pin_short).toBe(true);
  });
});

describe('the owner key’s absolute lifetime', () => {
  it('ends 15 minutes after the owner PIN, however busy the session keeps it', async () => {
    const { t } = await renterBooth();
    const renter = await signIn(t.app, EVENT_PIN);
    expect((await request(t.app).post('/api/admin/session/elevate').set('Cookie', renter).send({ pin: TEST_PIN })).status).toBe(204);
    const reorder = () => request(t.app).put('/api/admin/actions/reorder').set('Cookie', renter).send({ order: [] });
    for (let minute = 1; minute < 15; minute++) {
      t.clock.advance(60_000);
      expect((await reorder()).status, `minute ${minute}`).not.toBe(403);
    }
    t.clock.advance(60_000);
    expect((await reorder()).body.error?.code).toBe('owner_key_required');
    expect(await statusOf(t.app, renter)).toMatchObject({ authenticated: true, level: 'event' });
  });
});
