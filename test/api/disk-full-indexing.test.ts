import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { DEFERRED_RETRY_MS } from '../../server/photos/deferred-index.js';
import { signedInApp } from '../support/app.js';
import { captureItem } from '../support/capture-item.js';
import { fillDisk } from '../support/full-disk.js';

let free: () => void = () => undefined;
afterEach(() => free());

const item = (n: number): MediaItem => captureItem(n, `20261122-1200${String(n).padStart(2, '0')}-000000`);

async function boothWithFullDisk() {
  const { t, cookie } = await signedInApp();
  expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Gala' })).status).toBe(201);
  free = fillDisk(t.db);
  for (let n = 0; n < 7; n++) await t.services.indexer.handle({ event: 'DbInsert', data: item(n) });
  const shown = async (): Promise<number> =>
    ((await request(t.app).get('/api/admin/photos').set('Cookie', cookie)).body.photos as unknown[]).length;
  expect(await shown()).toBe(0);
  return { t, shown };
}

describe('photos taken while the disk was full', () => {
  it('are indexed on the retry timer once space is back, none lost', async () => {
    const { t, shown } = await boothWithFullDisk();
    // Still full at the first retry: they keep waiting.
    t.clock.advance(DEFERRED_RETRY_MS);
    await expect.poll(() => t.services.indexer.deferred.size).toBe(7);
    free();
    t.clock.advance(DEFERRED_RETRY_MS);
    await expect.poll(shown).toBe(7);
    expect(t.services.indexer.deferred.size).toBe(0);
  });

  it('are indexed as soon as the next photo goes in', async () => {
    const { t, shown } = await boothWithFullDisk();
    free();
    await t.services.indexer.handle({ event: 'DbInsert', data: item(8) });
    await expect.poll(shown).toBe(8);
  });

  it('are not brought back when deleted in the capture app meanwhile', async () => {
    const { t, shown } = await boothWithFullDisk();
    await t.services.indexer.handle({ event: 'DbRemove', data: item(3) });
    free();
    t.clock.advance(DEFERRED_RETRY_MS);
    await expect.poll(shown).toBe(6);
  });
});
