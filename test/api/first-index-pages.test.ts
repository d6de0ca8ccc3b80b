import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { buildTestApp, signIn } from '../support/app.js';

const COUNT = 600;
const stem = (n: number): string => `20261122-12${String(Math.floor(n / 60)).padStart(2, '0')}${String(n % 60).padStart(2, '0')}-000000`;
/** Photo n of the folder, n = 0 the oldest; the capture app lists them newest first. */
const item = (n: number): MediaItem => ({
  id: `9b1e6a80-0000-4000-8000-${String(n).padStart(12, '0')}`,
  media_type: 'image',
  created_at: '2026-11-22T12:00:00',
  updated_at: '2026-11-22T12:00:00',
  processed: `media/processed_full/${stem(n)}.jpg`,
  show_in_gallery: true,
});

/** The capture app, whose list answers its first page at once and the others when the test says. */
class HeldCaptureApp extends FakeCaptureApp {
  private release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  releaseOlderPages(): void {
    this.release();
  }
  override async listMedia(offset: number, limit: number): Promise<MediaItem[]> {
    if (offset > 0) await this.released;
    return super.listMedia(offset, limit);
  }
}

describe('a first index of a large folder', () => {
  it('shows guests the newest photos while older pages of the capture app’s list are still being matched', async () => {
    const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
    mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
    const capture = new HeldCaptureApp();
    for (let n = COUNT - 1; n >= 0; n--) {
      capture.items.push(item(n));
      writeFileSync(path.join(captureDataDir, item(n).processed), 'jpeg');
    }
    const t = await buildTestApp({ capture, captureDataDir });
    await request(t.app)
      .post('/api/admin/events')
      .set('Cookie', await signIn(t.app))
      .send({ name: 'Gala' });

    const rescan = t.services.indexer.rescan();
    await expect
      .poll(
        async () =>
          ((await request(t.app).get('/api/gallery/photos?limit=3')).body as { event: { photo_count: number } }).event.photo_count,
      )
      .toBe(500);
    const newest = (await request(t.app).get('/api/gallery/photos?limit=3')).body as { photos: { id: string }[] };
    expect(newest.photos.map((p) => p.id)).toEqual([item(COUNT - 1).id, item(COUNT - 2).id, item(COUNT - 3).id]);

    capture.releaseOlderPages();
    const report = await rescan;
    expect(report.added).toBe(COUNT);
    expect(report.unresolved).toBe(0);
    expect(t.services.photoRepository.count()).toBe(COUNT);
  });
});
