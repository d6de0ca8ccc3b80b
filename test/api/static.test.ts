import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/app.js';

describe('the two front ends are served with the right cache headers', () => {
  it('serves the console for every /admin page, never cached', async () => {
    const { app } = await buildTestApp();
    for (const path of [
      '/admin',
      '/admin/actions',
      '/admin/events',
      '/admin/gallery',
      '/admin/print',
      '/admin/hardware',
      '/admin/dashboard',
    ]) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('<title>admin</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves the public gallery at /', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>gallery</title>');
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('caches hashed assets for a year as immutable', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/assets/admin-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing asset, and for traversal attempts', async () => {
    const { app } = await buildTestApp();
    expect((await request(app).get('/assets/missing-000.js')).status).toBe(404);
    const traversal = await request(app).get('/assets/..%2f..%2fpackage.json');
    expect([403, 404]).toContain(traversal.status);
    expect(traversal.text).not.toContain('boothdeck');
    expect((await request(app).get('/nothing-here')).status).toBe(404);
  });

  it('sends a content security policy that forbids framing and foreign scripts', async () => {
    const { app } = await buildTestApp();
    const csp = (await request(app).get('/admin')).headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
