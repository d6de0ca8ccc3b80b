import { promises as fsp, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { configureImageDecoding } from '../../server/media/image-decoder.js';
import { ThumbnailStore } from '../../server/photos/thumbnail.store.js';

const photo = (): Promise<Buffer> =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: '#c86450' } })
    .jpeg()
    .toBuffer();

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const V1 = 'abc1234';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a thumbnail two hundred phones ask for at once', () => {
  it('is made once while they wait, and read from disk once when a restart left it only there', async () => {
    configureImageDecoding();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-thumbs-'));
    const source = await photo();
    let made = 0;
    const make = (): Promise<Buffer> => {
      made++;
      return Promise.resolve(source);
    };
    const store = new ThumbnailStore(dir, new FakeClock());
    const first = await Promise.all(Array.from({ length: 200 }, () => store.ensure(P1, V1, () => true, make)));
    expect(made).toBe(1);
    expect(new Set(first).size).toBe(1);

    // After a restart the thumbnail is on disk only: the phones share one read of it.
    const reads = vi.spyOn(fsp, 'readFile');
    const restarted = new ThumbnailStore(dir, new FakeClock());
    const again = await Promise.all(Array.from({ length: 200 }, () => restarted.ensure(P1, V1, () => true, make)));
    expect(made).toBe(1);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(again.every((b) => b.equals(first[0] as Buffer))).toBe(true);
    // Then it is in memory: no more reads.
    await restarted.ensure(P1, V1, () => true, make);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('a photo removed while its thumbnail is read back is not kept in memory', async () => {
    configureImageDecoding();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-thumbs-'));
    const source = await photo();
    await new ThumbnailStore(dir, new FakeClock()).ensure(
      P2,
      V1,
      () => true,
      () => Promise.resolve(source),
    );
    const restarted = new ThumbnailStore(dir, new FakeClock());
    const reading = restarted.ensure(
      P2,
      V1,
      () => true,
      () => Promise.resolve(source),
    );
    await restarted.remove(P2);
    await reading;
    expect(restarted.has(P2, V1)).toBe(false);
  });
});
