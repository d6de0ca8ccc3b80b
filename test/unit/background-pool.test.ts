import { spawnSync } from 'node:child_process';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundPool } from '../../server/core/background/background-pool.js';
import { BackgroundTaskError, WORKER_CRASHED } from '../../server/core/background/background.protocol.js';
import { BoardLoad, parseCpuPressure } from '../../server/core/background/board-load.js';
import { readSchedulingOf, SCHED_IDLE } from '../../server/core/background/own-priority.js';
import { resolveWorkerEntry } from '../../server/core/background/worker-entry.js';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { createBackgroundMedia } from '../../server/media/background-resize.js';
import { UnreadableMediaError } from '../../server/media/image-decoder.js';
import { publishWork } from '../../server/publish/publish-tasks.js';
import { eventually } from '../support/eventually.js';
import { readZip } from '../support/zip.js';

const clock = createSystemClock();
const calm = 'some avg10=1.50 avg60=0.80 avg300=0.40 total=123\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n';
const busy = 'some avg10=48.20 avg60=30.00 avg300=12.00 total=456\nfull avg10=3.00 avg60=1.00 avg300=0.50 total=7\n';

let dir: string;
let pools: BackgroundPool[];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'background-pool-'));
  pools = [];
});
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A pressure file the test writes, as /proc/pressure/cpu reads. */
const pressure = (text: string): string => {
  const file = path.join(dir, 'cpu-pressure');
  writeFileSync(file, text);
  return file;
};

/** A pool of the test worker (test/support/background-test.worker.ts), on a board as calm or busy as `pressureText`. */
function testPool(pressureText = calm, max = 2): BackgroundPool {
  const entry = resolveWorkerEntry(new URL('../support/here', import.meta.url).href, 'background-test.worker');
  const pool = new BackgroundPool({
    entry,
    inline: () => Promise.reject(new Error('the test worker always runs in a process')),
    load: new BoardLoad({
      pressureFile: pressure(pressureText),
      throttledFile: path.join(dir, 'none'),
      cores: 4,
      max,
      now: () => clock.monotonic(),
    }),
    clock,
    log: createRecordingLogger(),
  });
  pools.push(pool);
  return pool;
}

/** Nice of every thread of a process: Linux keeps one per thread. */
const threadNices = (pid: number): number[] =>
  readdirSync(`/proc/${pid}/task`).map((tid) => readSchedulingOf(Number(tid))?.nice ?? Number.NaN);

describe('background workers run below everything else', () => {
  it('makes a thumbnail in a worker process', async () => {
    const media = createBackgroundMedia({ clock, log: createRecordingLogger(), workers: 'processes' });
    pools.push(media.pool);
    const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer();

    const thumb = await media.resize(jpeg, { edge: 480, format: 'webp', quality: 72 });

    expect((await sharp(thumb).metadata()).width).toBe(480);
    const [pid] = media.pool.pids();
    expect(pid).toBeDefined();
    expect(pid).not.toBe(process.pid);
  });

  it("starts a worker as the booth's hosts start the service: two malloc arenas and V8's small young generation, whatever the service's own environment says", async () => {
    const before = process.env.MALLOC_ARENA_MAX;
    process.env.MALLOC_ARENA_MAX = '8';
    try {
      const pool = testPool();
      await pool.run('pid', {});
      const [pid] = pool.pids() as [number];
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(argv).toContain('--max-semi-space-size=4');
      expect(env).toContain('MALLOC_ARENA_MAX=2');
    } finally {
      if (before === undefined) delete process.env.MALLOC_ARENA_MAX;
      else process.env.MALLOC_ARENA_MAX = before;
    }
  });

  it('lowers a worker to nice 19 at once and every thread of it to SCHED_IDLE (where chrt exists) before any work; the service keeps its own', async () => {
    // As on a booth: the suite itself runs background work at its own priority (vitest.config.ts).
    process.env.BOOTHDECK_BACKGROUND_PRIORITY = 'lowest';
    try {
      const pool = testPool();
      // Not awaited: on a machine whose cores are all busy, a worker at SCHED_IDLE does nothing
      // more, which is the point. What it did to itself is read from the kernel.
      pool.run('pid', {}).catch(() => undefined);
      await eventually(() => expect(pool.pids()).toHaveLength(1));
      const [pid] = pool.pids() as [number];
      expect(readSchedulingOf(pid)?.nice).toBe(19);
      // The worker lowers the rest itself once Node (and, from sources, tsx) has started in it at
      // nice 19: seconds on a quiet machine, a minute or more beside a load on every core.
      if (spawnSync('chrt', ['--version']).status === 0) {
        await eventually(() => expect(readSchedulingOf(pid)?.policy).toBe(SCHED_IDLE), 240_000);
      }
      await eventually(() => expect(new Set(threadNices(pid))).toEqual(new Set([19])), 240_000);
      expect(readSchedulingOf(process.pid)?.nice).toBe(os.getPriority(0));
    } finally {
      process.env.BOOTHDECK_BACKGROUND_PRIORITY = 'normal';
    }
  }, 300_000);

  it('keeps workers at the service’s own priority where the runner asks for it', async () => {
    const pool = testPool();
    const pid = await pool.run<number>('pid', {});
    expect(readSchedulingOf(pid)?.nice).toBe(os.getPriority(0));
    expect(readSchedulingOf(pid)?.policy).not.toBe(SCHED_IDLE);
  });

  it('refuses a file that is no picture as unreadable, from a worker as in-process', async () => {
    for (const workers of ['processes', 'in-process'] as const) {
      const media = createBackgroundMedia({ clock, log: createRecordingLogger(), workers });
      pools.push(media.pool);
      await expect(media.resize(Buffer.from('not an image at all'), { edge: 480, format: 'webp', quality: 72 })).rejects.toBeInstanceOf(
        UnreadableMediaError,
      );
      expect(media.pool.pids()).toHaveLength(workers === 'processes' ? 1 : 0);
    }
  });
});

describe('work goes on when a worker dies', () => {
  it('gives a task whose worker died a second worker', async () => {
    const pool = testPool();
    await expect(pool.run('crashOnce', { marker: path.join(dir, 'crashed') })).resolves.toBe('made on the second try');
  });

  it('gives up a task that takes down two workers, and runs the next one', async () => {
    const pool = testPool();
    const failed = await pool.run('crash', {}).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(BackgroundTaskError);
    expect((failed as BackgroundTaskError).errorName).toBe(WORKER_CRASHED);
    await expect(pool.run('pid', {})).resolves.toEqual(expect.any(Number));
  });

  it('starts a new worker after one was killed from outside while idle', async () => {
    const pool = testPool();
    const first = await pool.run<number>('pid', {});
    const gone = new Promise<void>((resolve) => {
      const check = (): void => void (readSchedulingOf(first) === undefined ? resolve() : setTimeout(check, 10));
      check();
    });
    process.kill(first, 'SIGKILL');
    await gone;
    const second = await pool.run<number>('pid', {});
    expect(second).not.toBe(first);
  });

  it('hands back the error a task threw, by its name', async () => {
    const pool = testPool();
    const failed = await pool.run('refuse', {}).catch((err: unknown) => err);
    expect(failed).toMatchObject({ errorName: 'RangeError', message: 'not this one' });
  });
});

describe('as many workers as the board can take', () => {
  it('runs two at once on a calm board, one on a busy one', async () => {
    // Two tasks that finish only once both run: two workers at once, however slowly the second starts.
    const met = path.join(dir, 'met');
    mkdirSync(met);
    const onePool = testPool(calm);
    const shared = await Promise.all(Array.from({ length: 2 }, () => onePool.run<number>('meet', { dir: met, count: 2 })));
    expect(new Set(shared).size).toBe(2);
    // On a busy board, never two at once: each task sees only its own file.
    const running = path.join(dir, 'running');
    mkdirSync(running);
    const busyPool = testPool(busy);
    const seen = await Promise.all(Array.from({ length: 3 }, () => busyPool.run<number>('overlap', { dir: running, ms: 100 })));
    expect(seen).toEqual([1, 1, 1]);
  });
});

describe('the board’s load', () => {
  it('reads `some avg10` from the pressure file', () => {
    expect(parseCpuPressure(calm)).toBe(1.5);
    expect(parseCpuPressure(busy)).toBe(48.2);
    expect(parseCpuPressure('nothing here')).toBeUndefined();
  });

  it('allows one worker while the board is throttled, and reads files at most once a second', () => {
    let now = 0;
    const throttledFile = path.join(dir, 'get_throttled');
    writeFileSync(throttledFile, '0x4\n');
    const load = new BoardLoad({ pressureFile: pressure(calm), throttledFile, cores: 4, now: () => now });
    expect(load.limit()).toBe(1);
    // Throttled since boot only (bits 16 and 18), not now: read within 10 s.
    writeFileSync(throttledFile, '0x50000\n');
    now += 1000;
    expect(load.limit()).toBe(1);
    now += 9000;
    expect(load.limit()).toBe(2);
    writeFileSync(path.join(dir, 'cpu-pressure'), busy);
    now += 500;
    expect(load.limit()).toBe(2);
    now += 500;
    expect(load.limit()).toBe(1);
  });

  it('falls back on the load average per core without pressure information', () => {
    let loadAverage = 0.4;
    const load = new BoardLoad({
      pressureFile: path.join(dir, 'missing'),
      cores: 2,
      loadAverage: () => loadAverage,
      now: () => clock.monotonic(),
    });
    expect(load.limit()).toBe(2);
    loadAverage = 1.8;
    const later = new BoardLoad({
      pressureFile: path.join(dir, 'missing'),
      cores: 2,
      loadAverage: () => loadAverage,
      now: () => clock.monotonic(),
    });
    expect(later.limit()).toBe(1);
  });
});

describe("the online gallery's file work runs in the workers too", () => {
  it('seals a file and lays out a ZIP in a worker of its own lane; a ZIP with a photo gone is not complete', async () => {
    const media = createBackgroundMedia({ clock, log: createRecordingLogger(), workers: 'processes' });
    pools.push(media.pool, media.files);
    const work = publishWork((name, input) => media.files.run(name, input));
    const photo = path.join(dir, 'photo.jpg');
    const bytes = randomBytes(300_000);
    writeFileSync(photo, bytes);

    const key = randomBytes(32);
    await work.seal(key, photo, path.join(dir, 'sealed.bin'));
    const sealed = readFileSync(path.join(dir, 'sealed.bin'));
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(4, 16));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    expect(Buffer.concat([decipher.update(sealed.subarray(16, sealed.length - 16)), decipher.final()]).equals(bytes)).toBe(true);
    // A process of its own, lowered as the pool's are (the lowering's own test above).
    expect(media.files.pids()).toHaveLength(1);
    expect(media.files.pids()[0]).not.toBe(process.pid);

    const entry = { name: 'Soirée_2026-11-27_21-00-00.jpg', file: photo, size: bytes.length, mtime: Date.UTC(2026, 10, 27, 21) };
    expect(await work.zip([entry], path.join(dir, 'event.zip'))).toEqual({ complete: true });
    const [inZip] = await readZip(readFileSync(path.join(dir, 'event.zip')));
    expect(inZip?.name).toBe(entry.name);
    expect(inZip?.data.equals(bytes)).toBe(true);
    const gone = { ...entry, name: 'gone.jpg', file: path.join(dir, 'gone.jpg') };
    expect(await work.zip([entry, gone], path.join(dir, 'event-2.zip'))).toEqual({ complete: false });
  });
});
