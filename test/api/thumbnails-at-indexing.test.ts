import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../server/core/logger.js';
import { ThumbnailQueue } from '../../server/photos/thumbnail.queue.js';
import { ThumbnailStore } from '../../server/photos/thumbnail.store.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

/** A promise the test settles when it wants. */
function gate<T = void>(): { promise: Promise<T>; open: (v: T) => void } {
  let open!: (v: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}
const tick = () => new Promise<void>((r) => setImmediate(r));
const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** One media version for the store's own tests: every photo there has a single state. */
const V = '0000001';

/** Whether a thumbnail of the photo is kept: of its current version, or of any once it left the index. */
function hasThumb(t: SimApp, photoId: string): boolean {
  const version = t.services.photos.versionOf(photoId);
  if (version) return t.services.thumbnails.has(photoId, version);
  const dir = path.dirname(t.services.thumbnails.pathOf(photoId, V));
  return existsSync(dir) && readdirSync(dir).some((n) => n.startsWith(photoId));
}

describe('thumbnails are made when photos are indexed', () => {
  let t: SimApp;
  beforeEach(async () => {
    t = await startSimApp();
    t.services.thumbnailQueue.start();
  });
  afterEach(async () => {
    await t.services.thumbnailQueue.stop();
    await t.close();
  });

  it('makes the thumbnail of each new photo before any gallery asks, and a guest then gets that file', async () => {
    expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Gala' })).status).toBe(201);
    const items = [await t.sim.capture(), await t.sim.capture(), await t.sim.capture()];
    await t.services.indexer.rescan();
    await t.services.thumbnailQueue.idle();
    for (const item of items) expect(hasThumb(t, item.id)).toBe(true);
    const stored = t.services.thumbnails.pathOf(items[0]!.id, t.services.photos.versionOf(items[0]!.id)!);
    const made = statSync(stored).mtimeMs;
    const res = await request(t.app).get(`/api/gallery/photos/${items[0]!.id}/thumb`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(statSync(stored).mtimeMs).toBe(made);
    // A photo taken live is handled the same way.
    const live = await t.sim.capture();
    await t.services.indexer.indexItem(live);
    await t.services.thumbnailQueue.idle();
    expect(hasThumb(t, live.id)).toBe(true);
  });

  it('makes the current event’s newest photos first, and not an archived event’s', async () => {
    expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Gala' })).status).toBe(201);
    const first = await t.sim.capture();
    await t.services.indexer.rescan();
    const row = (photoId: string) => t.services.photoRepository.find(photoId)!;
    expect(t.services.photos.onFirstScreen(row(first.id))).toBe(true);
    expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Brunch' })).status).toBe(201);
    const next = await t.sim.capture();
    await t.services.indexer.rescan();
    // The gala is archived now: the next guest opens the brunch's gallery.
    expect(t.services.photos.onFirstScreen(row(first.id))).toBe(false);
    expect(t.services.photos.onFirstScreen(row(next.id))).toBe(true);
  });

  it('leaves no thumbnail for a photo removed before its turn', async () => {
    const item = await t.sim.capture();
    await t.services.thumbnailQueue.stop();
    await t.services.indexer.indexItem(item);
    t.services.indexer.remove(item.id);
    t.services.thumbnailQueue.start();
    await t.services.thumbnailQueue.idle();
    expect(hasThumb(t, item.id)).toBe(false);
  });
});

describe('the thumbnail queue', () => {
  it('keeps only the newest photos when more arrive than it holds, and makes them newest first, one at a time', async () => {
    const made: string[] = [];
    let running = 0;
    let most = 0;
    const queue = new ThumbnailQueue(
      async (photo) => {
        running++;
        most = Math.max(most, running);
        await tick();
        made.push(photo);
        running--;
      },
      createRecordingLogger(),
      3,
    );
    // A first index lists photos newest first; a live burst brings newer ones afterwards.
    [5, 4, 3, 2, 1].forEach((n) => queue.push(id(n), n * 1000));
    queue.push(id(6), 6000);
    expect(queue.size).toBe(3);
    queue.start();
    await queue.idle();
    expect(made).toEqual([id(6), id(5), id(4)]);
    expect(most).toBe(1);
  });

  it('makes the first screen’s photos before the others, two at a time, then the rest one at a time', async () => {
    const made: string[] = [];
    const kinds: boolean[] = [];
    let running = 0;
    const most = { firstScreen: 0, rest: 0 };
    const queue = new ThumbnailQueue(async (photo, firstScreen) => {
      running++;
      const key = firstScreen ? 'firstScreen' : 'rest';
      most[key] = Math.max(most[key], running);
      await tick();
      made.push(photo);
      kinds.push(firstScreen);
      running--;
    }, createRecordingLogger());
    // A page of older photos came first; the newest event's first screen arrives after them.
    [3, 2, 1].forEach((n) => queue.push(id(n), n * 1000));
    [9, 8, 7, 6].forEach((n) => queue.push(id(n), n * 1000, true));
    queue.start();
    await queue.idle();
    expect(made.slice(0, 4).sort()).toEqual([id(6), id(7), id(8), id(9)]);
    expect(made.slice(4)).toEqual([id(3), id(2), id(1)]);
    expect(kinds).toEqual([true, true, true, true, false, false, false]);
    expect(most).toEqual({ firstScreen: 2, rest: 1 });
  });

  it('takes a push without waiting for the work, and lets the thumbnail in progress finish on stop', async () => {
    const slow = gate();
    const done: string[] = [];
    const queue = new ThumbnailQueue(async (photo) => {
      await slow.promise;
      done.push(photo);
    }, createRecordingLogger());
    queue.start();
    queue.push(id(1), 1);
    queue.push(id(2), 2);
    const stopped = queue.stop();
    slow.open();
    await stopped;
    expect(done).toEqual([id(1)]);
    expect(queue.size).toBe(0);
  });

  it('logs a thumbnail it could not make and goes on with the next', async () => {
    const log = createRecordingLogger();
    const made: string[] = [];
    const queue = new ThumbnailQueue(
      (photo) => (photo === id(2) ? Promise.reject(new Error('corrupt JPEG')) : (made.push(photo), Promise.resolve())),
      log,
    );
    queue.push(id(2), 2);
    queue.push(id(1), 1);
    queue.start();
    await queue.idle();
    expect(made).toEqual([id(1)]);
    expect(log.lines.join('\n')).toContain('corrupt JPEG');
  });
});

/** Image sources that record the order they are asked in and answer only when the test opens them. */
function heldSources(): {
  order: string[];
  held: Map<string, { open: (v: Buffer) => void }>;
  source: (name: string) => () => Promise<Buffer>;
} {
  const order: string[] = [];
  const held = new Map<string, { open: (v: Buffer) => void }>();
  const source = (name: string) => () => {
    order.push(name);
    const g = gate<Buffer>();
    held.set(name, g);
    return g.promise;
  };
  return { order, held, source };
}

describe('requests go before thumbnails made ahead', () => {
  let dir: string;
  let jpeg: Buffer;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-thumbs-'));
    jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c87850' } })
      .jpeg()
      .toBuffer();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs at most one background thumbnail, and a guest’s request takes the next free slot before waiting background work', async () => {
    const clock = new FakeClock();
    const store = new ThumbnailStore(dir, clock);
    const { order, held, source } = heldSources();
    const yes = () => true;
    const bg1 = store.ensure(id(1), V, yes, source('bg1'), 'background');
    const bg2 = store.ensure(id(2), V, yes, source('bg2'), 'background');
    const fg1 = store.ensure(id(3), V, yes, source('fg1'));
    const fg2 = store.ensure(id(4), V, yes, source('fg2'));
    await tick();
    // Two slots: one background thumbnail, one request; the other two wait.
    expect(order).toEqual(['bg1', 'fg1']);
    held.get('bg1')!.open(jpeg);
    await bg1;
    await tick();
    expect(order).toEqual(['bg1', 'fg1', 'fg2']);
    held.get('fg1')!.open(jpeg);
    held.get('fg2')!.open(jpeg);
    await Promise.all([fg1, fg2]);
    await tick();
    // Background work waits until the galleries have been quiet for a moment.
    clock.advance(200);
    await tick();
    expect(order).toEqual(['bg1', 'fg1', 'fg2']);
    clock.advance(50);
    await tick();
    expect(order).toEqual(['bg1', 'fg1', 'fg2', 'bg2']);
    held.get('bg2')!.open(jpeg);
    await bg2;
    for (const n of [1, 2, 3, 4]) expect(existsSync(store.pathOf(id(n), V))).toBe(true);
  });

  it('makes the first screen’s thumbnails with both slots at once, after any request, without waiting for a quiet moment', async () => {
    const clock = new FakeClock();
    const store = new ThumbnailStore(dir, clock);
    const { order, held, source } = heldSources();
    const yes = () => true;
    const asked = store.ensure(id(1), V, yes, source('fg'));
    const screen = [2, 3, 4].map((n) => store.ensure(id(n), V, yes, source(`fs${n}`), 'first-screen'));
    const later = store.ensure(id(5), V, yes, source('bg'), 'background');
    await tick();
    // A guest has just asked: the first screen still takes the other slot at once.
    expect(order).toEqual(['fg', 'fs2']);
    held.get('fg')!.open(jpeg);
    await asked;
    await tick();
    expect(order).toEqual(['fg', 'fs2', 'fs3']);
    held.get('fs2')!.open(jpeg);
    await screen[0];
    await tick();
    expect(order).toEqual(['fg', 'fs2', 'fs3', 'fs4']);
    held.get('fs3')!.open(jpeg);
    held.get('fs4')!.open(jpeg);
    await Promise.all(screen);
    // Background work alone still waits for the galleries' quiet moment.
    await tick();
    expect(order).not.toContain('bg');
    clock.advance(250);
    await tick();
    expect(order.at(-1)).toBe('bg');
    held.get('bg')!.open(jpeg);
    await later;
  });

  it('moves a waiting background thumbnail up when a guest asks for that same photo', async () => {
    const clock = new FakeClock();
    const store = new ThumbnailStore(dir, clock);
    const { order, held, source } = heldSources();
    const yes = () => true;
    const running = store.ensure(id(1), V, yes, source('bg1'), 'background');
    const fg = store.ensure(id(2), V, yes, source('fg'));
    const queued = store.ensure(id(3), V, yes, source('bg3'), 'background');
    const other = store.ensure(id(4), V, yes, source('bg4'), 'background');
    await tick();
    expect(order).toEqual(['bg1', 'fg']);
    // A guest now wants photo 3: it is made as soon as a slot frees, ahead of photo 4.
    const asked = store.ensure(id(3), V, yes, source('unused'));
    held.get('fg')!.open(jpeg);
    await fg;
    await tick();
    expect(order).toEqual(['bg1', 'fg', 'bg3']);
    held.get('bg3')!.open(jpeg);
    expect(await asked).toBe(await queued);
    held.get('bg1')!.open(jpeg);
    await running;
    clock.advance(250);
    await tick();
    held.get('bg4')!.open(jpeg);
    await other;
    expect(order).toEqual(['bg1', 'fg', 'bg3', 'bg4']);
  });
});
