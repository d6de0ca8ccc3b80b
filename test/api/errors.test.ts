import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../server/app.js';
import { ConflictError } from '../../server/core/errors.js';
import { errorMiddleware } from '../../server/http/error.middleware.js';
import { buildTestApp, signIn } from '../support/app.js';

describe('bad input gets a clear 4xx JSON error and changes nothing', () => {
  it('malformed JSON → 400 invalid_json', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post('/api/admin/session').set('Content-Type', 'application/json').send('{"pin": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'invalid_json', message: expect.any(String) } });
  });

  it(`a body over ${JSON_BODY_LIMIT} → 413, and the service keeps serving`, async () => {
    const { app } = await buildTestApp();
    const res = await request(app)
      .post('/api/admin/session')
      .send({ pin: '1'.repeat(100_000) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect((await request(app).get('/healthz')).body).toMatchObject({ ok: true });
  });

  it('a wrong type → 400 naming the field', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post('/api/admin/session').send({ pin: 1234 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.issues).toContainEqual({ field: 'pin', message: expect.any(String) });
  });

  it('an unknown field → 400 naming it, and no session is opened', async () => {
    const { app, services } = await buildTestApp({ pin: null });
    const res = await request(app).post('/api/admin/session/pin').send({ pin: '1234', admin: true });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues).toContainEqual({ field: 'admin', message: 'unknown field' });
    expect(services.auth.isPinSet()).toBe(false);
  });

  it('a body that is not an object → 400', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post('/api/admin/session').set('Content-Type', 'application/json').send('"1234"');
    expect(res.status).toBe(400);
  });

  it('an unknown /api route → 404 JSON', async () => {
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    for (const path of ['/api/nothing', '/api/gallery/nothing']) {
      const res = await request(app).get(path).set('Cookie', cookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: expect.stringContaining(path) } });
    }
  });

  it('typed errors keep their status; anything else is a 500 without a stack trace', async () => {
    const logged: unknown[] = [];
    const app = express();
    app.get('/conflict', () => {
      throw new ConflictError('already there');
    });
    app.get('/boom', () => {
      throw new Error('secret internals at /srv/boothdeck/file.ts:12');
    });
    app.use(errorMiddleware((err) => logged.push(err)));
    const conflict = await request(app).get('/conflict');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: { code: 'conflict', message: 'already there' } });
    const boom = await request(app).get('/boom');
    expect(boom.status).toBe(500);
    expect(boom.body.error.code).toBe('internal_error');
    expect(JSON.stringify(boom.body)).not.toMatch(/secret internals|file\.ts|at /);
    expect(logged).toHaveLength(1);
  });
});
