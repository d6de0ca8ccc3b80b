import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/app.js';

describe('GET /healthz', () => {
  it('names the running version and says no event is under way on a fresh booth', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      ok: true,
      version: '0.0.0-test',
      simulator: false,
      event_active: false,
      last_photo_age_seconds: null,
      event_age_seconds: null,
    });
  });

  it("tells how long ago the current event's newest photo was taken (the deploy script's event guard)", async () => {
    const { app, services, clock } = await buildTestApp();
    const event = services.events.create({ name: 'Mariage' });
    expect((await request(app).get('/healthz')).body).toMatchObject({
      event_active: true,
      last_photo_age_seconds: null,
      event_age_seconds: 0,
    });
    const eventId = services.events.get(event.slug).id;
    services.photoRepository.upsert({
      id: 'a1',
      stem: '20261122-143005-123456',
      file: 'media/processed_full/20261122-143005-123456.jpg',
      kind: 'photo',
      event_id: eventId,
      taken_at: clock.now(),
      updated_at: null,
      created_at: clock.now(),
      mtime: clock.now(),
      size: 1,
      processed: 1,
      visible: 1,
      missing: 0,
      printed_copies: 0,
      indexed_at: clock.now(),
    });
    clock.advance(12 * 60_000);
    expect((await request(app).get('/healthz')).body).toMatchObject({
      event_active: true,
      last_photo_age_seconds: 720,
      event_age_seconds: 720,
    });
  });
});
