import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SourceMissingError, type StagedPhoto } from '../../server/publish/publish-files.js';
import { runPipeline, type PreparedPhoto } from '../../server/publish/publish-pipeline.js';
import type { PublishFileRow } from '../../server/publish/publish.repository.js';
import { holdsWhole } from '../../server/publish/publish-check.js';
import { webpSize } from '../../server/publish/webp-size.js';
import sharp from 'sharp';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const workDir = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-pipeline-'));
  dirs.push(dir);
  return path.join(dir, 'work');
};

const row = (i: number): PublishFileRow => ({
  event_id: 1,
  photo_id: `p${i}`,
  version: 'v',
  names: '[]',
  state: 'pending',
  attempts: 0,
  updated_at: 0,
  sizes: null,
  thumb_w: null,
  thumb_h: null,
});

/** Lays a row out as the queue does: its files under their published names. */
function layOut(dir: string, i: number): StagedPhoto {
  const names = { media: `media/${i}.jpg`, thumb: `thumbs/${i}.webp`, page: `p/${i}.html` };
  for (const name of Object.values(names)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), `file ${name}`);
  }
  return { names, sizes: Object.values(names).map((n) => `file ${n}`.length), thumb: null };
}

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('the publishing pipeline', () => {
  it('sends the first photo ready before the others are prepared, then each batch with what was prepared meanwhile', async () => {
    const firstSent = gate();
    const sends: string[][] = [];
    const confirmed: PreparedPhoto[][] = [];
    await runPipeline(
      Array.from({ length: 7 }, (_, i) => row(i)),
      {
        // Every photo but the first waits for the first upload: a pipeline that waited for a
        // whole batch to be laid out would never get there.
        prepare: async (r, dir) => {
          const i = Number(r.photo_id.slice(1));
          if (i > 0) await firstSent.opened;
          return layOut(dir, i);
        },
        send: async (dir, names) => {
          sends.push(names.filter((n) => n.startsWith('media/')));
          for (const name of names) expect(readdirSync(path.join(dir, path.dirname(name)))).toContain(path.basename(name));
          firstSent.open();
        },
        confirm: async (batch) => {
          confirmed.push(batch);
        },
      },
      { workDir: workDir(), parallel: 2, batchSize: 4, ahead: 8, stopped: () => false, spacingMs: 0, clock: createSystemClock() },
    );
    expect(sends[0]).toEqual(['media/0.jpg']);
    expect(sends.flat().sort()).toEqual(Array.from({ length: 7 }, (_, i) => `media/${i}.jpg`).sort());
    expect(Math.max(...sends.map((s) => s.length))).toBeLessThanOrEqual(4);
    expect(
      confirmed
        .flat()
        .map((p) => p.row.photo_id)
        .sort(),
    ).toEqual(Array.from({ length: 7 }, (_, i) => `p${i}`).sort());
  });

  it('while photos are still being prepared, waits for twice the last batch or the spacing, and sends the last one at once', async () => {
    const clock = new FakeClock();
    const gates = Array.from({ length: 5 }, () => gate());
    gates[0]?.open();
    const sends: string[][] = [];
    let prepared = 0;
    const done = runPipeline(
      Array.from({ length: 5 }, (_, i) => row(i)),
      {
        prepare: async (r, dir) => {
          const i = Number(r.photo_id.slice(1));
          await gates[i]?.opened;
          const staged = layOut(dir, i);
          prepared++;
          return staged;
        },
        send: async (_dir, names) => void sends.push(names.filter((n) => n.startsWith('media/'))),
        confirm: async () => undefined,
      },
      { workDir: workDir(), parallel: 1, batchSize: 10, ahead: 10, stopped: () => false, spacingMs: 10_000, clock },
    );
    await expect.poll(() => sends.length).toBe(1);
    gates[1]?.open();
    await expect.poll(() => prepared).toBe(2);
    // One ready, as many as last time, more coming, the last run less than the spacing ago: it waits.
    expect(sends).toHaveLength(1);
    clock.advance(10_000);
    await expect.poll(() => sends.length).toBe(2);
    // Twice as many as last time: no wait for the spacing.
    gates[2]?.open();
    gates[3]?.open();
    await expect.poll(() => sends.length).toBe(3);
    gates[4]?.open();
    await done;
    expect(sends).toEqual([['media/0.jpg'], ['media/1.jpg'], ['media/2.jpg', 'media/3.jpg'], ['media/4.jpg']]);
  });

  it('leaves a photo whose file is missing, and says so only when nothing could be sent', async () => {
    const steps = (missing: (i: number) => boolean, sent: string[]) => ({
      prepare: async (r: PublishFileRow, dir: string) => {
        const i = Number(r.photo_id.slice(1));
        if (missing(i)) throw new SourceMissingError(r.photo_id);
        return layOut(dir, i);
      },
      send: async (_dir: string, names: string[]) => void sent.push(...names.filter((n) => n.startsWith('media/'))),
      confirm: async () => undefined,
    });
    const options = {
      workDir: workDir(),
      parallel: 2,
      batchSize: 10,
      ahead: 20,
      stopped: () => false,
      spacingMs: 0,
      clock: createSystemClock(),
    };
    const sent: string[] = [];
    await runPipeline(
      [row(0), row(1), row(2)],
      steps((i) => i === 1, sent),
      options,
    );
    expect(sent.sort()).toEqual(['media/0.jpg', 'media/2.jpg']);
    await expect(
      runPipeline(
        [row(0), row(1)],
        steps(() => true, []),
        { ...options, workDir: workDir() },
      ),
    ).rejects.toBeInstanceOf(SourceMissingError);
  });

  it('stops at a failed upload and throws it, with nothing left in its folder', async () => {
    const dir = workDir();
    await expect(
      runPipeline(
        Array.from({ length: 5 }, (_, i) => row(i)),
        {
          prepare: async (r, d) => layOut(d, Number(r.photo_id.slice(1))),
          send: async () => {
            throw new Error('remote refused');
          },
          confirm: async () => undefined,
        },
        { workDir: dir, parallel: 2, batchSize: 2, ahead: 4, stopped: () => false, spacingMs: 0, clock: createSystemClock() },
      ),
    ).rejects.toThrow('remote refused');
    expect(() => readdirSync(dir)).toThrow();
  });
});

describe('what the check calls whole', () => {
  const listing = new Map([
    ['media/a.jpg', 1000],
    ['thumbs/a.webp', 20],
  ]);
  it('wants every name, at the size it was sent with', () => {
    expect(holdsWhole(listing, ['media/a.jpg', 'thumbs/a.webp'], [1000, 20])).toBe(true);
    expect(holdsWhole(listing, ['media/a.jpg', 'thumbs/a.webp'], [2000, 20])).toBe(false);
    expect(holdsWhole(listing, ['media/a.jpg', 'p/a.html'], [1000, 5])).toBe(false);
    // Rows sent before sizes were kept: their names alone.
    expect(holdsWhole(listing, ['media/a.jpg', 'thumbs/a.webp'], null)).toBe(true);
  });
});

describe('a thumbnail’s proportions', () => {
  it('are read from the WebP itself, lossy, lossless or extended', async () => {
    const image = sharp({ create: { width: 480, height: 320, channels: 3, background: '#888' } });
    expect(webpSize(await image.clone().webp({ quality: 70 }).toBuffer())).toEqual({ width: 480, height: 320 });
    expect(webpSize(await image.clone().webp({ lossless: true }).toBuffer())).toEqual({ width: 480, height: 320 });
    const alpha = sharp({ create: { width: 270, height: 480, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } });
    expect(webpSize(await alpha.webp({ quality: 70 }).toBuffer())).toEqual({ width: 270, height: 480 });
    expect(webpSize(Buffer.from('not a picture at all, but long enough'))).toBeNull();
  });
});
