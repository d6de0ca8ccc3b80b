import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { buildTestApp, signIn } from '../support/app.js';

const item = (n: number): MediaItem => ({
  id: `9b1e6a80-0000-4000-8000-${String(n).padStart(12, '0')}`,
  media_type: 'image',
  created_at: `2026-11-22T12:0${n}:00`,
  updated_at: `2026-11-22T12:0${n}:00`,
  processed: `media/processed_full/20261122-120${n}00-000000.jpg`,
  show_in_gallery: true,
});

describe('the public photo list, answered from memory under load', () => {
  it('never serves a stale page: new photos, print counts and a new event show at once', async () => {
    const t = await buildTestApp({ capture: new FakeCaptureApp() });
    const cookie = await signIn(t.app);
    await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Soirée' });
    const list = async (): Promise<{ id: string; printed_copies: number }[]> =>
      (await request(t.app).get('/api/gallery/photos')).body.photos as { id: string; printed_copies: number }[];

    await t.services.indexer.handle({ event: 'DbInsert', data: item(1) });
    expect(await list()).toHaveLength(1);
    const first = await request(t.app).get('/api/gallery/photos');
    const again = await request(t.app).get('/api/gallery/photos').set('If-None-Match', String(first.headers.etag));
    expect(again.status).toBe(304);

    await t.services.indexer.handle({ event: 'DbInsert', data: item(2) });
    expect((await list()).map((p) => p.id)).toEqual([item(2).id, item(1).id]);
    t.services.photoRepository.setPrinted(item(1).id, 2);
    expect((await list())[1]?.printed_copies).toBe(2);
    expect((await request(t.app).get('/api/gallery/photos').set('If-None-Match', String(first.headers.etag))).status).toBe(200);

    await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Lendemain' });
    expect(await list()).toEqual([]);
  });
});
