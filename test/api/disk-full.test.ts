import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn } from '../support/app.js';
import { fillDisk } from '../support/full-disk.js';

let free: () => void = () => undefined;
afterEach(() => free());

describe('a full disk', () => {
  it('is a state: sign-in and reads keep working, writes say "disk full" and change nothing', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Avant' })).status).toBe(201);
    free = fillDisk(t.db);

    // The once-a-minute last_seen write fails: the session goes on.
    t.clock.advance(2 * 60_000);
    expect((await request(t.app).get('/api/admin/events').set('Cookie', cookie)).status).toBe(200);
    const second = await signIn(t.app);
    expect((await request(t.app).get('/api/admin/settings').set('Cookie', second)).status).toBe(200);

    const created = await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Après' });
    expect(created.status).toBe(507);
    expect(created.body.error.code).toBe('disk_full');
    expect(created.body.error.message).toMatch(/storage is full/);
    // The first session's owner key has lapsed after two idle minutes: the owner's own write goes through the fresh one.
    const preset = await request(t.app).post('/api/admin/actions/presets').set('Cookie', second).send({ name: 'Soir' });
    expect(preset.body.error?.code).toBe('disk_full');

    const events = await request(t.app).get('/api/admin/events').set('Cookie', cookie);
    expect(events.body).toMatchObject({ current_slug: 'avant' });
    expect(events.body.events).toHaveLength(1);
    expect((await request(t.app).get('/api/gallery/photos')).status).toBe(200);
    expect((await request(t.app).get('/api/admin/status').set('Cookie', cookie)).body.warnings.disk_full).toBe(true);

    free();
    expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Après' })).status).toBe(201);
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
