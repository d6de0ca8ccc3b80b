import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { FIRST_SCREEN_WAIT_MS } from '../../server/photos/first-screen-lead.js';
import { FIRST_SCREEN_PHOTOS } from '../../server/photos/photo.service.js';
import { buildTestApp, signIn, type TestApp } from '../support/app.js';

const COUNT = 100;
const stem = (n: number): string => `20261122-12${String(Math.floor(n / 60)).padStart(2, '0')}${String(n % 60).padStart(2, '0')}-000000`;
/** Photo n of the folder, n = 0 the oldest; the capture app lists them newest first. */
const item = (n: number): MediaItem => ({
  id: `5c2d7e10-0000-4000-8000-${String(n).padStart(12, '0')}`,
  media_type: 'image',
  created_at: '2026-11-22T12:00:00',
  updated_at: '2026-11-22T12:00:00',
  processed: `media/processed_full/${stem(n)}.jpg`,
  show_in_gallery: true,
});
/** The photos a guest's first screen shows: the newest of the event. */
const firstScreen = Array.from({ length: FIRST_SCREEN_PHOTOS }, (_, i) => item(COUNT - 1 - i).id);
const older = Array.from({ length: COUNT - FIRST_SCREEN_PHOTOS }, (_, i) => item(i).id);

const gate = (): { promise: Promise<void>; open: () => void } => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
};

const galleryCount = async (t: TestApp): Promise<number> =>
  ((await request(t.app).get('/api/gallery/photos?limit=3')).body as { event: { photo_count: number } }).event.photo_count;

describe('a first index of a folder of photos', () => {
  let t: TestApp;
  let capture: FakeCaptureApp;
  const hasThumb = (id: string): boolean => {
    const version = t.services.photos.versionOf(id);
    return version !== undefined && t.services.thumbnails.has(id, version);
  };

  beforeEach(async () => {
    const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
    mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
    const jpeg = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3a6ea5' } })
      .jpeg()
      .toBuffer();
    capture = new FakeCaptureApp();
    for (let n = COUNT - 1; n >= 0; n--) {
      capture.items.push(item(n));
      writeFileSync(path.join(captureDataDir, item(n).processed), jpeg);
    }
    t = await buildTestApp({ capture, captureDataDir });
    await request(t.app)
      .post('/api/admin/events')
      .set('Cookie', await signIn(t.app))
      .send({ name: 'Gala' });
  });
  afterEach(async () => {
    await t.services.photoSync.stop();
  });

  it('ends with the first screen drawn: the older photos join once the newest ones have their thumbnails', async () => {
    const joined: { id: string; firstScreenDrawn: boolean }[] = [];
    t.services.hub.subscribe('gallery', (event) => {
      if (event.event === 'photo-added') joined.push({ id: event.data.id, firstScreenDrawn: firstScreen.every(hasThumb) });
    });
    // The thumbnail queue is not started: only the index itself can have made a thumbnail.
    const report = await t.services.indexer.rescan();
    expect(report.added).toBe(COUNT);
    expect(firstScreen.every(hasThumb)).toBe(true);
    expect(older.some(hasThumb)).toBe(false);
    expect(
      joined
        .slice(0, FIRST_SCREEN_PHOTOS)
        .map((j) => j.id)
        .sort(),
    ).toEqual([...firstScreen].sort());
    expect(joined.slice(FIRST_SCREEN_PHOTOS).every((j) => j.firstScreenDrawn)).toBe(true);
    const page = (await request(t.app).get(`/api/gallery/photos?limit=${COUNT}`)).body as { photos: { id: string }[] };
    expect(page.photos.map((p) => p.id)).toEqual(Array.from({ length: COUNT }, (_, i) => item(COUNT - 1 - i).id));
  });

  it('does not bring back a photo deleted at the booth while the first screen was being drawn, nor announce a live one twice', async () => {
    const drawn = gate();
    vi.spyOn(t.services.photos, 'prepareThumbnail').mockImplementation(() => drawn.promise);
    const rescan = t.services.indexer.rescan();
    await expect.poll(() => galleryCount(t)).toBe(FIRST_SCREEN_PHOTOS);
    const deleted = item(3);
    const retaken = item(5);
    await t.services.indexer.handle({ event: 'DbRemove', data: deleted });
    await t.services.indexer.handle({ event: 'DbUpdate', data: retaken });
    const keyWhenLive = t.services.photoRepository.find(retaken.id)?.sort_key;
    const added: string[] = [];
    t.services.hub.subscribe('gallery', (event) => {
      if (event.event === 'photo-added') added.push(event.data.id);
    });
    drawn.open();
    await rescan;
    expect(t.services.photoRepository.find(deleted.id)).toBeUndefined();
    expect(t.services.photoRepository.find(retaken.id)?.sort_key).toBe(keyWhenLive);
    expect(added).not.toContain(retaken.id);
    expect(await galleryCount(t)).toBe(COUNT - 1);
  });

  it('saves the rest anyway when the first screen’s thumbnails take too long', async () => {
    vi.spyOn(t.services.photos, 'prepareThumbnail').mockImplementation(() => new Promise<void>(() => undefined));
    const rescan = t.services.indexer.rescan();
    await expect.poll(() => galleryCount(t)).toBe(FIRST_SCREEN_PHOTOS);
    t.clock.advance(FIRST_SCREEN_WAIT_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await galleryCount(t)).toBe(FIRST_SCREEN_PHOTOS);
    t.clock.advance(1);
    expect((await rescan).added).toBe(COUNT);
    expect(await galleryCount(t)).toBe(COUNT);
  });

  it('saves the rest at once when the service stops during the wait', async () => {
    vi.spyOn(t.services.photos, 'prepareThumbnail').mockImplementation(() => new Promise<void>(() => undefined));
    const rescan = t.services.indexer.rescan();
    await expect.poll(() => galleryCount(t)).toBe(FIRST_SCREEN_PHOTOS);
    t.services.indexer.stop();
    expect((await rescan).added).toBe(COUNT);
    expect(t.services.photoRepository.count()).toBe(COUNT);
  });
});
