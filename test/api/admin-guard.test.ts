import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { adminRouter } from '../../server/admin.router.js';
import { buildTestApp, signIn } from '../support/app.js';
import { listRoutes } from '../support/routes.js';

describe('every admin route needs a session', async () => {
  const { app, services } = await buildTestApp();
  const routes = listRoutes(adminRouter(services));

  it('finds the admin routes to check', () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(routes).toContainEqual({ method: 'GET', path: '/status' });
  });

  it.each(routes)('$method /api/admin$path answers 401 without a session', async ({ method, path }) => {
    const res = await request(app)[method.toLowerCase() as 'get'](`/api/admin${path}`).send({});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it.each(routes)('$method /api/admin$path answers 401 with a forged cookie', async ({ method, path }) => {
    const res = await request(app)[method.toLowerCase() as 'get'](`/api/admin${path}`).set('Cookie', 'bd_session=forged').send({});
    expect(res.status).toBe(401);
  });

  it('lets a signed-in operator through', async () => {
    const cookie = await signIn(app);
    expect((await request(app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(200);
  });

  it('answers 401, not 404, for an unknown admin path without a session', async () => {
    expect((await request(app).get('/api/admin/nothing-here')).status).toBe(401);
  });
});
