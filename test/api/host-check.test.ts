import os from 'node:os';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildTestApp, signIn } from '../support/app.js';

describe('the Host header on the admin API', () => {
  it('keeps a DNS-rebinding page from claiming the first-run PIN', async () => {
    const { app, services } = await buildTestApp({ pin: null });
    const res = await request(app).post('/api/admin/session/pin').set('Host', 'attacker.example').send({ pin: '2468' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('host_not_allowed');
    expect(services.auth.isPinSet()).toBe(false);
    expect((await request(app).get('/api/admin/session').set('Host', 'attacker.example:8080')).status).toBe(403);
    expect((await request(app).post('/api/admin/session/pin').set('Host', 'localhost:8080').send({ pin: '2468' })).status).toBe(204);
  });

  it('refuses a foreign Host even with a valid session, and accepts the booth’s own names', async () => {
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    expect((await request(app).get('/api/admin/events').set('Cookie', cookie).set('Host', 'evil.test')).status).toBe(403);
    expect((await request(app).get('/api/admin/events').set('Cookie', cookie).set('Host', '')).status).toBe(403);
    const own = ['127.0.0.1:8080', '[::1]:8080', 'localhost', `${os.hostname()}.local:8080`];
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((e) => e?.family === 'IPv4' && !e.internal)?.address;
    if (lan) own.push(`${lan}:8080`);
    for (const host of own) {
      expect((await request(app).get('/api/admin/events').set('Cookie', cookie).set('Host', host)).status, host).toBe(200);
    }
    // The gallery stays open to any name a phone may use.
    expect((await request(app).get('/api/gallery/photos').set('Host', 'evil.test')).status).toBe(200);
  });

  it('accepts the configured public address once set', async () => {
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    const host = 'photomaton.example.org';
    expect((await request(app).get('/api/admin/events').set('Cookie', cookie).set('Host', host)).status).toBe(403);
    const put = await request(app)
      .put('/api/admin/settings')
      .set('Cookie', cookie)
      .send({ gallery: { public_url: `https://${host}/` } });
    expect(put.status).toBe(200);
    expect((await request(app).get('/api/admin/events').set('Cookie', cookie).set('Host', host)).status).toBe(200);
  });
});
