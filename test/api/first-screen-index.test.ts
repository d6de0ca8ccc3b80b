import { setImmediate as nextTurn } from 'node:timers/promises';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { FIRST_SCREEN_WAIT_MS } from '../../server/photos/first-screen-lead.js';
import type { RescanReport } from '../../server/photos/photo-indexer.js';
import { FIRST_SCREEN_PHOTOS } from '../../server/photos/photo.service.js';
import { buildTestApp, signIn, type TestApp } from '../support/app.js';
import { captureItem } from '../support/capture-item.js';

const stem = (n: number): string => `20261122-12${String(Math.floor(n / 60)).padStart(2, '0')}${String(n % 60).padStart(2, '0')}-000000`;
/** Photo n of the folder, n = 0 the oldest; the capture app lists them newest first. */
const item = (n: number): MediaItem => captureItem(n, stem(n));
/** The ids of photos n = to − count … to − 1, newest first. */
const newest = (to: number, count: number): string[] => Array.from({ length: count }, (_, i) => item(to - 1 - i).id);

const gate = (): { promise: Promise<void>; open: () => void } => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
};

/** The capture app; its list's pages after the first answer only once the test lets them. */
class PagedCaptureApp extends FakeCaptureApp {
  readonly asked: number[] = [];
  private later = Promise.resolve();
  holdLaterPages(): () => void {
    const held = gate();
    this.later = held.promise;
    return held.open;
  }
  override async listMedia(offset: number, limit: number): Promise<MediaItem[]> {
    this.asked.push(offset);
    if (offset > 0) await this.later;
    return super.listMedia(offset, limit);
  }
}

const galleryCount = async (t: TestApp): Promise<number> =>
  ((await request(t.app).get('/api/gallery/photos?limit=3')).body as { event: { photo_count: number } }).event.photo_count;
const galleryIds = async (t: TestApp): Promise<string[]> =>
  ((await request(t.app).get('/api/gallery/photos?limit=200')).body as { photos: { id: string }[] }).photos.map((p) => p.id);

let t: TestApp;
let capture: PagedCaptureApp;
let captureDataDir: string;
const hasThumb = (id: string): boolean => {
  const version = t.services.photos.versionOf(id);
  return version !== undefined && t.services.thumbnails.has(id, version);
};

/** A folder of `count` photos (those `onDisk` says have their file), listed by the capture app, and a current event. */
async function booth(count: number, onDisk: (n: number) => boolean = () => true): Promise<void> {
  captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
  mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
  const jpeg = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3a6ea5' } })
    .jpeg()
    .toBuffer();
  capture = new PagedCaptureApp();
  for (let n = count - 1; n >= 0; n--) {
    capture.items.push(item(n));
    if (onDisk(n)) writeFileSync(path.join(captureDataDir, item(n).processed), jpeg);
  }
  t = await buildTestApp({ capture, captureDataDir });
  await request(t.app)
    .post('/api/admin/events')
    .set('Cookie', await signIn(t.app))
    .send({ name: 'Gala' });
}

const never = new Promise<void>(() => undefined);

/**
 * Starts a rescan whose first screen's thumbnails are made only once `drawn` settles; returns
 * once that first screen is in the gallery, with the rescan still running.
 */
async function rescanHeldAtFirstScreen(drawn: Promise<void>): Promise<{ rescan: Promise<RescanReport> }> {
  vi.spyOn(t.services.photos, 'prepareThumbnail').mockImplementation(() => drawn);
  const rescan = t.services.indexer.rescan();
  await expect.poll(() => galleryCount(t)).toBe(FIRST_SCREEN_PHOTOS);
  return { rescan };
}

afterEach(async () => {
  await t.services.photoSync.stop();
});

describe('a first index of a folder of photos', () => {
  it('ends with the first screen drawn: the older photos join once the newest ones have their thumbnails', async () => {
    await booth(100);
    const firstScreen = newest(100, FIRST_SCREEN_PHOTOS);
    const older = newest(100 - FIRST_SCREEN_PHOTOS, 100 - FIRST_SCREEN_PHOTOS);
    const joined: { id: string; firstScreenDrawn: boolean }[] = [];
    t.services.hub.subscribe('gallery', (event) => {
      if (event.event === 'photo-added') joined.push({ id: event.data.id, firstScreenDrawn: firstScreen.every(hasThumb) });
    });
    // The thumbnail queue is not started: only the index itself can have made a thumbnail.
    const report = await t.services.indexer.rescan();
    expect(report.added).toBe(100);
    expect(firstScreen.every(hasThumb)).toBe(true);
    expect(older.some(hasThumb)).toBe(false);
    expect(joined.slice(0, FIRST_SCREEN_PHOTOS).map((j) => j.id)).toEqual(firstScreen);
    expect(joined.slice(FIRST_SCREEN_PHOTOS).every((j) => j.firstScreenDrawn)).toBe(true);
    expect(await galleryIds(t)).toEqual(newest(100, 100));
  });

  it('keeps reading the capture app’s list meanwhile, and fills the first screen from as many pages as it takes', async () => {
    // The first page of 500 brings only 30 new photos (the others have no file yet); the next page the rest.
    await booth(600, (n) => n >= 570 || n < 100);
    const drawn = gate();
    const { rescan } = await rescanHeldAtFirstScreen(drawn.promise);
    expect(capture.asked).toEqual([0, 500]);
    expect(await galleryIds(t)).toEqual([...newest(600, 30), ...newest(100, FIRST_SCREEN_PHOTOS - 30)]);
    drawn.open();
    expect((await rescan).added).toBe(130);
    expect(await galleryIds(t)).toEqual([...newest(600, 30), ...newest(100, 100)]);
  });

  it('does not undo what happened at the booth while the first screen was being drawn', async () => {
    await booth(100);
    const drawn = gate();
    const { rescan } = await rescanHeldAtFirstScreen(drawn.promise);
    const deleted = item(3);
    const hidden = { ...item(5), show_in_gallery: false };
    await t.services.indexer.handle({ event: 'DbRemove', data: deleted });
    await t.services.indexer.handle({ event: 'DbUpdate', data: hidden });
    const added: string[] = [];
    t.services.hub.subscribe('gallery', (event) => {
      if (event.event === 'photo-added') added.push(event.data.id);
    });
    drawn.open();
    await rescan;
    expect(t.services.photoRepository.find(deleted.id)).toBeUndefined();
    expect(t.services.photoRepository.find(hidden.id)?.visible).toBe(0);
    expect(added).not.toContain(hidden.id);
    expect(await galleryCount(t)).toBe(98);
  });

  it('saves the rest anyway when the first screen’s thumbnails take too long', async () => {
    await booth(100);
    const { rescan } = await rescanHeldAtFirstScreen(never);
    t.clock.advance(FIRST_SCREEN_WAIT_MS - 1);
    await nextTurn();
    expect(await galleryCount(t)).toBe(FIRST_SCREEN_PHOTOS);
    t.clock.advance(1);
    expect((await rescan).added).toBe(100);
    expect(await galleryCount(t)).toBe(100);
  });

  it('waits for nothing once the service stops, before the wait began or during it', async () => {
    await booth(100);
    const { rescan } = await rescanHeldAtFirstScreen(never);
    t.services.indexer.stop();
    expect((await rescan).added).toBe(100);

    await booth(100);
    vi.spyOn(t.services.photos, 'prepareThumbnail').mockImplementation(() => never);
    t.services.indexer.stop();
    expect((await t.services.indexer.rescan()).added).toBe(100);
  });

  it('survives a save that fails while the list is still being read, and a later rescan brings the rest', async () => {
    await booth(600);
    const release = capture.holdLaterPages();
    const upsertMany = t.services.photoRepository.upsertMany.bind(t.services.photoRepository);
    const full = vi.spyOn(t.services.photoRepository, 'upsertMany').mockImplementation((rows) => {
      if (rows.length > FIRST_SCREEN_PHOTOS) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      upsertMany(rows);
    });
    const drawn = gate();
    const { rescan } = await rescanHeldAtFirstScreen(drawn.promise);
    // The held page fails to save while the next page of the list is still awaited.
    drawn.open();
    await expect.poll(() => full.mock.results.some((r) => r.type === 'throw')).toBe(true);
    release();
    expect((await rescan).added).toBe(FIRST_SCREEN_PHOTOS);
    expect(t.log.lines.join('\n')).toContain('Could not save newly found photos');

    full.mockRestore();
    expect((await t.services.indexer.rescan()).added).toBe(600 - FIRST_SCREEN_PHOTOS);
    expect(await galleryCount(t)).toBe(600);
  });

  it('shows guests the newest photos while older pages of the capture app’s list are still being matched', async () => {
    await booth(600);
    const release = capture.holdLaterPages();
    const rescan = t.services.indexer.rescan();
    await expect.poll(() => galleryCount(t)).toBe(500);
    expect((await galleryIds(t)).slice(0, 3)).toEqual(newest(600, 3));
    release();
    const report = await rescan;
    expect(report.added).toBe(600);
    expect(report.unresolved).toBe(0);
    expect(t.services.photoRepository.count()).toBe(600);
  });
});
