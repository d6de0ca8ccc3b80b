import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
    // Guests see a photo once its processed file exists: put the files where the capture app would.
    const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
    mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
    for (const n of [1, 2]) writeFileSync(path.join(captureDataDir, item(n).processed), 'jpeg');
    const t = await buildTestApp({ capture: new FakeCaptureApp(), captureDataDir });
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

  it('a write that changes nothing guests see keeps the same page (one body, one tag); a change they see makes a new one', async () => {
    const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
    mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
    writeFileSync(path.join(captureDataDir, item(1).processed), 'jpeg');
    const t = await buildTestApp({ capture: new FakeCaptureApp(), captureDataDir });
    const cookie = await signIn(t.app);
    await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Soirée' });
    await t.services.indexer.handle({ event: 'DbInsert', data: item(1) });
    const before = t.services.photos.listPublic(undefined, 24);
    const first = await request(t.app).get('/api/gallery/photos?limit=24');

    // A guest's session, an upload's progress, a print job: rows written, none of them the list's.
    t.db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('test.unrelated', '1', '2026-11-22')").run();
    expect(t.services.photos.listPublic(undefined, 24)).toBe(before);
    const again = await request(t.app).get('/api/gallery/photos?limit=24').set('If-None-Match', String(first.headers.etag));
    expect(again.status).toBe(304);

    // A change guests do see is a new page, and a new tag.
    t.services.photoRepository.setPrinted(item(1).id, 1);
    expect(t.services.photos.listPublic(undefined, 24)).not.toBe(before);
    const changed = await request(t.app).get('/api/gallery/photos?limit=24').set('If-None-Match', String(first.headers.etag));
    expect(changed.status).toBe(200);
    expect(changed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(changed.headers['content-length'])).toBe(Buffer.byteLength(changed.text));
    expect((changed.body as { photos: { printed_copies: number }[] }).photos[0]?.printed_copies).toBe(1);
  });
});
