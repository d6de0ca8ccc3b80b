import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { signedInApp, type TestApp } from '../support/app.js';

let t: TestApp;
let capture: FakeCaptureApp;
let cookie: string;
beforeEach(async () => {
  ({ t, capture, cookie } = await signedInApp());
});

const actionCount = async (): Promise<number> =>
  ((await request(t.app).get('/api/admin/actions').set('Cookie', cookie)).body.actions as unknown[]).length;

describe('hostile request bodies', () => {
  it('refuses a non-JSON body with 415, and creates nothing', async () => {
    const before = await actionCount();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await request(t.app).post('/api/admin/actions/create').set('Cookie', cookie).set('Content-Type', type).send('{}');
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    }
    expect(await actionCount()).toBe(before);
    expect(capture.configWrites).toBe(0);
  });

  it('refuses 3,000 levels of nesting with 400, and keeps serving', async () => {
    const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    for (const [method, path] of [
      ['put', '/api/admin/actions/0'],
      ['put', '/api/admin/settings'],
      ['post', '/api/admin/events'],
    ] as const) {
      const res = await request(t.app)[method](path).set('Cookie', cookie).set('Content-Type', 'application/json').send(deep);
      expect(res.status).toBe(400);
    }
    const nested = { ui_trigger: JSON.parse(`${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`) as unknown };
    expect((await request(t.app).put('/api/admin/actions/0').set('Cookie', cookie).send(nested)).status).toBe(400);
    expect((await request(t.app).get('/healthz')).status).toBe(200);
  });

  it('refuses unknown or wrong-typed keys whatever their value, {} included', async () => {
    const before = structuredClone(capture.config);
    for (const body of [
      { bogus: {} },
      { bogus: null },
      { general: { bogus: {} } },
      { 'general.name': {} },
      { ui_trigger: { title: {} } },
    ]) {
      const res = await request(t.app).put('/api/admin/actions/0').set('Cookie', cookie).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{ bogus: {} }, { print: {}, extra: 1 }, { print: 5 }, { hardware: { relay: { gpio: {} } } }]) {
      const res = await request(t.app).put('/api/admin/settings').set('Cookie', cookie).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Ok', extra: {} })).status).toBe(400);
    expect(capture.config).toEqual(before);
  });

  it('refuses control characters in names', async () => {
    for (const name of ['Soirée\u0000', 'a\u001bb', 'x\u0085']) {
      expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name })).status).toBe(400);
      expect((await request(t.app).post('/api/admin/actions/presets').set('Cookie', cookie).send({ name })).status).toBe(400);
      expect((await request(t.app).put('/api/admin/actions/0').set('Cookie', cookie).send({ 'general.name': name })).status).toBe(400);
    }
    expect((await request(t.app).get('/api/admin/events').set('Cookie', cookie)).body.events).toHaveLength(0);
  });

  it('changes nothing on PUT /settings {}', async () => {
    const before = (await request(t.app).get('/api/admin/settings').set('Cookie', cookie)).body as unknown;
    const stored = t.db.prepare('SELECT COUNT(*) AS n FROM settings').get();
    const res = await request(t.app).put('/api/admin/settings').set('Cookie', cookie).send({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
    expect(t.db.prepare('SELECT COUNT(*) AS n FROM settings').get()).toEqual(stored);
    expect(capture.configWrites).toBe(0);
    expect(t.services.restarter.status().state).toBe('idle');
  });
});
