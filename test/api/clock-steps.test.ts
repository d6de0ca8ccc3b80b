import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { buildTestApp, signIn } from '../support/app.js';

const DAY = 24 * 60 * 60_000;

/** A photo as the capture app stamps it from a wrong clock (January, before the event). */
function itemAt(n: number, when: Date): MediaItem {
  const pad = (v: number, w = 2): string => String(v).padStart(w, '0');
  const stem = `${when.getUTCFullYear()}${pad(when.getUTCMonth() + 1)}${pad(when.getUTCDate())}-${pad(when.getUTCHours())}${pad(when.getUTCMinutes())}${pad(n)}-000000`;
  return {
    id: `5e0d6d3c-0000-4000-8000-${String(n).padStart(12, '0')}`,
    media_type: 'image',
    created_at: when.toISOString().slice(0, 19),
    updated_at: when.toISOString().slice(0, 19),
    processed: `media/processed_full/${stem}.jpg`,
    unprocessed: `media/unprocessed_original/${stem}.jpg`,
    show_in_gallery: true,
  };
}

describe('a wall clock that steps back', () => {
  it('keeps new photos in the current event, through rescans, and warns the console', async () => {
    const capture = new FakeCaptureApp();
    const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
    const t = await buildTestApp({ capture, captureDataDir });
    const cookie = await signIn(t.app);
    expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Soirée' })).status).toBe(201);

    // The Pi reboots at the venue with no network time: its clock reads January.
    const wrong = new Date(Date.UTC(2026, 0, 1, 10, 0, 0));
    t.clock.setWall(wrong.getTime());
    const live = itemAt(1, wrong);
    const whileAway = itemAt(2, wrong);
    for (const item of [live, whileAway]) {
      const file = path.join(captureDataDir, item.processed);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, 'jpeg');
      capture.items.unshift(item);
    }
    await t.services.indexer.handle({ event: 'DbInsert', data: live });
    await t.services.indexer.rescan();
    await t.services.indexer.rescan();

    const gallery = await request(t.app).get('/api/gallery/photos');
    expect((gallery.body.photos as { id: string }[]).map((p) => p.id).sort()).toEqual([live.id, whileAway.id].sort());
    const events = await request(t.app).get('/api/admin/events').set('Cookie', cookie);
    expect(events.body.events[0]).toMatchObject({ slug: 'soiree', photo_count: 2 });

    const status = await request(t.app).get('/api/admin/status').set('Cookie', cookie);
    expect(status.body.warnings).toEqual({ disk_full: false, clock_behind: true });

    // Network time comes back: the photos stay where they are, the warning goes.
    t.clock.setWall(Date.UTC(2026, 10, 22, 13, 0, 0));
    await t.services.indexer.rescan();
    expect((await request(t.app).get('/api/gallery/photos')).body.photos).toHaveLength(2);
    expect((await request(t.app).get('/api/admin/status').set('Cookie', cookie)).body.warnings.clock_behind).toBe(false);
  });

  it('does not stretch a PIN lockout', async () => {
    const t = await buildTestApp();
    for (let i = 0; i < 5; i++) await request(t.app).post('/api/admin/session').send({ pin: '0000' });
    t.clock.stepWall(-DAY);
    const res = await request(t.app).post('/api/admin/session').send({ pin: '0000' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(300);
    t.clock.advance(5 * 60_000 + 1);
    expect((await request(t.app).post('/api/admin/session').send({ pin: '0000' })).status).toBe(401);
  });

  it('does not let a session outlive its idle limit', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    t.clock.stepWall(-60 * 60_000);
    t.clock.advance(30 * 60_000 + 1);
    expect((await request(t.app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(401);
  });

  it('keeps a session alive while it is used, whatever the wall clock does', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    for (let i = 0; i < 4; i++) {
      t.clock.advance(20 * 60_000);
      t.clock.stepWall(i % 2 === 0 ? 3 * 60 * 60_000 : -5 * 60 * 60_000);
      expect((await request(t.app).get('/api/admin/status').set('Cookie', cookie)).status).toBe(200);
    }
  });
});
