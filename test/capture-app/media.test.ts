import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { startBooth, until, type Booth } from './support/booth.js';

let b: Booth;
beforeAll(async () => {
  b = await startBooth('media');
  expect((await b.operator.post('/api/admin/events', { name: 'Médias' })).status).toBe(201);
});
afterAll(async () => {
  await b?.close();
});

/** The operator's view of one photo, once Boothdeck has it (parts are nested under their collage). */
async function adminPhoto(id: string): Promise<ReturnType<typeof JSON.parse>> {
  const list = await until(
    () => b.operator.get('/api/admin/photos?limit=100'),
    (r) => (r.body.photos ?? []).some((p: { id: string }) => p.id === id),
    60_000,
    `photo ${id} in the console`,
  );
  return list.body.photos.find((p: { id: string }) => p.id === id);
}

const guestIds = async (): Promise<string[]> =>
  ((await b.guest().get('/api/gallery/photos?limit=100')).body.photos ?? []).map((p: { id: string }) => p.id);

/** Runs a job at the booth and gives the item it made (the last DbInsert: parts come first). */
async function made(kind: string): Promise<{ item: MediaItem; parts: MediaItem[] }> {
  const run = await b.booth.job(kind, 0);
  expect(run.ok, `the ${kind} job: ${run.states.join(', ')}`).toBe(true);
  const item = run.inserted.at(-1);
  if (!item) throw new Error(`The ${kind} job added nothing`);
  expect(item.media_type).toBe(kind);
  console.log(`${kind}: ${run.ms} ms from the button to its end (indicative)`);
  return { item, parts: run.inserted.slice(0, -1) };
}

const items: Record<string, MediaItem> = {};

describe('every kind of media the capture app makes', () => {
  it('a photo: JPEG everywhere, printable', async () => {
    const { item } = await made('image');
    items.image = item;
    const photo = await adminPhoto(item.id);
    expect(photo).toMatchObject({ kind: 'photo', processed: true, missing: false });
    const download = await b.operator.get(photo.urls.download);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(download.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    await until(guestIds, (ids) => ids.includes(item.id), 30_000, 'the photo for guests');
  });

  it('a collage with its parts: nested in the console, hidden from guests', async () => {
    const { item, parts } = await made('collage');
    items.collage = item;
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.every((p) => p.media_type === 'image')).toBe(true);
    const collage = await until(
      () => adminPhoto(item.id),
      (c) => (c.parts ?? []).length === parts.length,
      30_000,
      'the collage’s parts under it',
    );
    expect(collage.kind).toBe('collage');
    expect(collage.parts.map((p: { id: string }) => p.id).sort()).toEqual(parts.map((p) => p.id).sort());
    const ids = await until(guestIds, (list) => list.includes(item.id), 30_000, 'the collage for guests');
    for (const part of parts) expect(ids).not.toContain(part.id);
    expect((await b.guest().get(`/api/gallery/photos/${parts[0]?.id}/download`)).status).toBe(404);
  });

  it('an animation: animated WebP', async () => {
    const { item } = await made('animation');
    items.animation = item;
    expect(item.processed).toMatch(/\.webp$/);
    const photo = await adminPhoto(item.id);
    expect(photo.kind).toBe('animation');
    const media = await b.operator.get(photo.urls.media);
    expect(media.headers.get('content-type')).toBe('image/webp');
    // An animated WebP: a RIFF/WEBP file with the VP8X animation flag.
    expect(media.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(media.bytes.subarray(8, 16).toString('latin1')).toBe('WEBPVP8X');
    expect(media.bytes[20]! & 0x02).toBe(0x02);
    expect((await b.operator.get(photo.urls.thumb)).headers.get('content-type')).toBe('image/webp');
  });

  it('a video and a multicamera shot: MP4, with a poster drawn by Boothdeck', async () => {
    for (const kind of ['video', 'multicamera']) {
      const { item } = await made(kind);
      items[kind] = item;
      expect(item.processed).toMatch(/\.mp4$/);
      const photo = await adminPhoto(item.id);
      expect(photo.kind).toBe('video');
      const media = await b.operator.get(photo.urls.media);
      expect(media.headers.get('content-type')).toBe('video/mp4');
      expect(media.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const poster = await b.operator.get(photo.urls.preview);
      expect(poster.status).toBe(200);
      expect(poster.headers.get('content-type')).toBe('image/jpeg');
    }
  });
});

describe('printing what the booth made', () => {
  it('prints a photo and a collage from their files, and refuses an animation and a video', async () => {
    for (const kind of ['image', 'collage']) {
      const id = items[kind]?.id ?? '';
      const res = await b.operator.post(`/api/admin/photos/${id}/print`, { copies: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await until(
      () => b.printer.jobs.length,
      (n) => n === 2,
      30_000,
      'two prints at the printer',
    );
    for (const job of b.printer.jobs) expect(job.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    for (const kind of ['animation', 'video', 'multicamera']) {
      const res = await b.operator.post(`/api/admin/photos/${items[kind]?.id ?? ''}/print`, { copies: 1 });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('not_printable');
    }
  });
});

describe('what happens to a photo at the booth', () => {
  it('a filter applied at the booth gives it a new thumbnail', async () => {
    const id = items.image?.id ?? '';
    const before = await adminPhoto(id);
    const oldThumb = (await b.operator.get(before.urls.thumb)).bytes;
    const res = await fetch(`${b.app.url}/api/filter/${id}?filter=FilterPilgram2.inkwell`, { method: 'PATCH' });
    expect(res.status).toBe(200);
    const after = await until(
      () => adminPhoto(id),
      (p) => p.urls.thumb !== before.urls.thumb,
      60_000,
      'a new thumbnail address',
    );
    const thumb = await b.operator.get(after.urls.thumb);
    expect(thumb.status).toBe(200);
    expect(thumb.bytes.equals(oldThumb)).toBe(false);
  });

  it('a deletion in the console reaches the capture app’s recycle folder and leaves the galleries', async () => {
    const item = items.image as MediaItem;
    const res = await b.operator.del(`/api/admin/photos/${item.id}`);
    expect(res.status).toBeLessThan(300);
    expect(await b.client.getMediaItem(item.id)).toBeNull();
    const recycle = path.join(b.app.dataDir, 'recycle');
    expect(existsSync(recycle) ? readdirSync(recycle) : []).toContain(path.basename(item.unprocessed ?? ''));
    expect(existsSync(path.join(b.app.dataDir, item.processed))).toBe(false);
    await until(guestIds, (ids) => !ids.includes(item.id), 30_000, 'the photo gone from the guests’ gallery');
  });
});
