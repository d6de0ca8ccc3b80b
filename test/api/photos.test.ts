import { rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { AdminPhoto, PublicPhoto } from '../../server/contract/photos.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { binary } from '../support/binary.js';

let t: SimApp;
beforeEach(async () => {
  t = await startSimApp();
});
afterEach(async () => {
  await t.close();
});

const admin = (p: string) => request(t.app).get(`/api/admin${p}`).set('Cookie', t.cookie);
const guest = (p: string) => request(t.app).get(`/api/gallery${p}`);
const newEvent = async (name: string): Promise<void> => {
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name })).status).toBe(201);
};
const ids = (photos: { id: string }[]): string[] => photos.map((p) => p.id);

/** Two events: "Avant" with two photos, then the current "Maintenant" with three. */
async function twoEvents(): Promise<{ before: MediaItem[]; now: MediaItem[] }> {
  await newEvent('Avant');
  const before = [await t.sim.capture(), await t.sim.capture()];
  await newEvent('Maintenant');
  const now = [await t.sim.capture(), await t.sim.capture(), await t.sim.capture()];
  await t.services.indexer.rescan();
  return { before, now };
}

describe('the photo index', () => {
  it('indexes the capture app’s files with their UUID, event, times and processed state', async () => {
    const { before, now } = await twoEvents();
    const res = await admin('/photos');
    expect(res.status).toBe(200);
    const photos = res.body.photos as AdminPhoto[];
    expect(ids(photos)).toEqual([...ids([...now].reverse()), ...ids([...before].reverse())]);
    expect(photos[0]).toMatchObject({
      event: { slug: 'maintenant', name: 'Maintenant' },
      processed: true,
      printed_copies: 0,
      missing: false,
    });
    expect(photos[0]?.created_at).toBe(`${now[2]?.created_at}.000Z`);
  });

  it('rescans without reading unchanged files again, and catches up by mtime', async () => {
    await twoEvents();
    const listings = t.calls.get('listMedia')?.length ?? 0;
    const again = await t.services.indexer.rescan();
    expect(again).toMatchObject({ files: 5, unchanged: 5, added: 0, updated: 0 });
    expect(t.calls.get('listMedia')?.length ?? 0).toBe(listings);

    const extra = await t.sim.capture();
    const file = path.join(t.sim.dataDir, extra.processed);
    const later = await t.services.indexer.rescan();
    expect(later).toMatchObject({ files: 6, unchanged: 5, added: 1 });
    utimesSync(file, new Date('2026-01-02T10:00:00Z'), new Date('2026-01-02T10:00:00Z'));
    expect(await t.services.indexer.rescan()).toMatchObject({ unchanged: 5, updated: 1 });
  });

  it('drops a photo deleted in the capture app while Boothdeck was away, at the next rescan', async () => {
    const { now } = await twoEvents();
    const gone = now[0]!;
    expect(await t.client.deleteMedia(gone.id)).toBe(true);
    const report = await t.services.indexer.rescan();
    expect(report).toMatchObject({ files: 4, missing: 0 });
    expect(t.services.photoRepository.find(gone.id)).toBeUndefined();
  });

  it('hides a photo the capture app hides, in both galleries', async () => {
    const { now } = await twoEvents();
    const removed: unknown[] = [];
    t.services.hub.subscribe('gallery', (m) => m.event === 'photo-removed' && removed.push(m.data));
    const item = { ...now[0]!, show_in_gallery: false };
    await t.services.indexer.handle({ event: 'DbUpdate', data: item });
    expect(removed).toEqual([{ id: item.id }]);
    expect(ids((await guest('/photos')).body.photos)).not.toContain(item.id);
  });

  it('reports a photo whose file vanished, without failing', async () => {
    const { now } = await twoEvents();
    const lost = now[1]!;
    rmSync(path.join(t.sim.dataDir, lost.processed));
    expect((await t.services.indexer.rescan()).missing).toBe(1);
    const photo = ((await admin('/photos')).body.photos as AdminPhoto[]).find((p) => p.id === lost.id);
    expect(photo?.missing).toBe(true);
  });
});

describe('GET /api/admin/photos filters and cursor', () => {
  it('filters by event and by printed status, with the copy count', async () => {
    const { before, now } = await twoEvents();
    t.services.photoRepository.setPrinted(now[0]!.id, 2);
    expect(ids((await admin('/photos?event=avant')).body.photos)).toEqual(ids([...before].reverse()));
    const printed = (await admin('/photos?status=printed')).body.photos as AdminPhoto[];
    expect(printed.map((p) => [p.id, p.printed_copies])).toEqual([[now[0]!.id, 2]]);
    expect((await admin('/photos?status=not_printed&event=maintenant')).body.photos).toHaveLength(2);
  });

  it('filters by file date (mtime), whole local days', async () => {
    const { now } = await twoEvents();
    const day = new Date(2026, 0, 15, 12, 0, 0);
    utimesSync(path.join(t.sim.dataDir, now[0]!.processed), day, day);
    await t.services.indexer.rescan();
    expect(ids((await admin('/photos?from=2026-01-15&to=2026-01-15')).body.photos)).toEqual([now[0]!.id]);
    expect((await admin('/photos?to=2026-01-14')).body.photos).toEqual([]);
    expect((await admin('/photos?from=2026-01-16')).body.photos).toHaveLength(4);
  });

  it('pages newest first with a cursor, without gaps or repeats', async () => {
    const { before, now } = await twoEvents();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await admin(`/photos?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...ids(res.body.photos));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids([...now].reverse()).concat(ids([...before].reverse())));
  });

  it.each([
    'status=sold',
    'from=yesterday',
    'from=2026-02-30',
    'to=2026-13-01',
    'from=2026-02-30x',
    'limit=0',
    'limit=500',
    'limit=abc',
    'cursor=%2E%2E%2F',
    'event=Not%20A%20Slug',
    'colour=red',
    'from=2026-02-02&to=2026-02-01',
  ])('refuses ?%s with 400', async (query) => {
    const res = await admin(`/photos?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
  });

  it('answers 404 for an unknown event', async () => {
    expect((await admin('/photos?event=nope')).status).toBe(404);
  });
});

describe('the public gallery', () => {
  it('lists only the current event’s photos, newest first', async () => {
    const { now } = await twoEvents();
    const res = await guest('/photos');
    expect(res.status).toBe(200);
    expect(res.body.event).toEqual({ name: 'Maintenant', photo_count: 3, welcome: null });
    expect(ids(res.body.photos as PublicPhoto[])).toEqual(ids([...now].reverse()));
    expect(Object.keys((res.body.photos as PublicPhoto[])[0]!).sort()).toEqual(['id', 'kind', 'printed_copies', 'taken_at', 'urls']);
  });

  it('shows nothing before any event exists', async () => {
    await t.sim.capture();
    await t.services.indexer.rescan();
    expect((await guest('/photos')).body).toEqual({ photos: [], next_cursor: null, event: null });
  });

  it('never serves a photo of another event to a guest', async () => {
    const { before } = await twoEvents();
    for (const kind of ['thumb', 'preview', 'download']) {
      expect((await guest(`/photos/${before[0]!.id}/${kind}`)).status).toBe(404);
      expect((await admin(`/photos/${before[0]!.id}/${kind}`)).status).toBe(200);
    }
  });

  it('downloads through the proxy, named from the event and the photo’s time', async () => {
    const { now } = await twoEvents();
    const res = await guest(`/photos/${now[0]!.id}/download`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Maintenant_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}(-\d)?\.jpg"/);
    const direct = Buffer.from(await (await fetch(`${t.sim.url}/media/full/${now[0]!.id}`)).arrayBuffer());
    expect((res.body as Buffer).equals(direct)).toBe(true);
  });

  it('fetches a preview from the capture app once for every phone that opens it, and keeps it for good under its version', async () => {
    const { now } = await twoEvents();
    const tile = ((await guest('/photos')).body.photos as PublicPhoto[])[0]!;
    const previews = (): number => (t.calls.get('openMedia') ?? []).filter(([variant]) => variant === 'preview').length;
    const asked = await Promise.all(
      Array.from({ length: 20 }, () => guest(tile.urls.preview.replace('/api/gallery', '')).buffer(true).parse(binary)),
    );
    expect(asked.map((r) => r.status)).toEqual(asked.map(() => 200));
    expect(previews()).toBe(1);
    const direct = Buffer.from(await (await fetch(`${t.sim.url}/media/preview/${now[2]!.id}`)).arrayBuffer());
    expect(asked.every((r) => (r.body as Buffer).equals(direct))).toBe(true);
    expect(asked[0]?.headers['content-type']).toBe('image/jpeg');
    expect(asked[0]?.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    await guest(tile.urls.preview.replace('/api/gallery', ''));
    expect(previews()).toBe(1);
    // Removed at the booth: its preview is not kept for anyone.
    await t.client.deleteMedia(now[2]!.id);
    await t.services.indexer.rescan();
    expect((await guest(tile.urls.preview.replace('/api/gallery', ''))).status).toBe(404);
  });

  it('makes thumbnails once: small WebP, cached on disk', async () => {
    const { now } = await twoEvents();
    const first = await guest(`/photos/${now[0]!.id}/thumb`).buffer(true).parse(binary);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect((first.body as Buffer).length).toBeLessThan(80_000);
    expect((await sharp(first.body as Buffer).metadata()).width).toBeLessThanOrEqual(480);
    const stored = t.services.thumbnails.pathOf(now[0]!.id, t.services.photos.versionOf(now[0]!.id)!);
    const mtime = statSync(stored).mtimeMs;
    await guest(`/photos/${now[0]!.id}/thumb`);
    expect(statSync(stored).mtimeMs).toBe(mtime);
  });

  it.each([
    '..%2F..%2Fconfig%2Fconfig.json',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '..',
    'not-a-uuid',
    '00000000-0000-4000-8000-000000000000%2F..%2F..',
  ])('refuses the path-like id %s without touching the capture app', async (id) => {
    for (const kind of ['thumb', 'preview', 'download']) {
      const res = await guest(`/photos/${id}/${kind}`);
      expect([400, 404]).toContain(res.status);
    }
    expect(t.calls.get('openMedia') ?? []).toEqual([]);
    expect(t.calls.get('openFile') ?? []).toEqual([]);
  });

  it('answers 404 for an unknown photo', async () => {
    await twoEvents();
    expect((await guest('/photos/00000000-0000-4000-8000-000000000000/download')).status).toBe(404);
  });
});

describe('deleting a photo and the QR code', () => {
  it('deletes a photo in the capture app and from both galleries', async () => {
    const { now } = await twoEvents();
    const res = await request(t.app).delete(`/api/admin/photos/${now[0]!.id}`).set('Cookie', t.cookie);
    expect(res.status).toBe(204);
    expect(await t.client.getMediaItem(now[0]!.id)).toBeNull();
    expect(ids((await guest('/photos')).body.photos)).not.toContain(now[0]!.id);
  });

  it('keeps the photo, and says so, when the capture app does not delete it', async () => {
    const { now } = await twoEvents();
    // The capture app answers its bare 500 though the photo is still there.
    t.client.deleteMedia = async () => false;
    const res = await request(t.app).delete(`/api/admin/photos/${now[0]!.id}`).set('Cookie', t.cookie);
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('did not delete');
    expect(t.services.photoRepository.find(now[0]!.id)).toBeDefined();
  });

  it('gives the gallery address as a QR code, computed or from the settings', async () => {
    const computed = await admin('/gallery-link');
    expect(computed.body).toMatchObject({ url: 'http://192.168.4.1:8080/', source: 'computed' });
    expect(computed.body.svg).toMatch(/^<svg/);
    await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ gallery: { public_url: 'http://photos.booth:8080' } });
    expect((await admin('/gallery-link')).body).toMatchObject({ url: 'http://photos.booth:8080/', source: 'settings' });
  });
});
