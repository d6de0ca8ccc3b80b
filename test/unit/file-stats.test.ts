import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statInSlices } from '../../server/photos/file-stats.js';

describe('stating a capture folder in slices', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-stats-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each file its size and mtime, nothing for a missing file or a folder, and lets other work run between slices', async () => {
    const paths = Array.from({ length: 200 }, (_, i) => path.join(dir, `f${i}.jpg`));
    paths.forEach((p, i) => writeFileSync(p, Buffer.alloc(i)));
    mkdirSync(path.join(dir, 'sub'));
    // A clock that reads 10 ms later each time: every slice ends after its first batch.
    let now = 0;
    const monotonic = (): number => (now += 10);
    let otherWork = 0;
    let done = false;
    const other = (): void => {
      otherWork++;
      if (!done) setImmediate(other);
    };
    setImmediate(other);
    const infos = await statInSlices([...paths, path.join(dir, 'missing.jpg'), path.join(dir, 'sub')], monotonic);
    done = true;
    expect(infos.slice(0, 200).map((f) => f?.size)).toEqual(paths.map((_, i) => i));
    expect(infos[0]?.mtime).toBeGreaterThan(0);
    expect(infos.slice(200)).toEqual([undefined, undefined]);
    // 202 paths in slices of 32: six turns of the event loop went to other work.
    expect(otherWork).toBeGreaterThanOrEqual(6);
  });
});
