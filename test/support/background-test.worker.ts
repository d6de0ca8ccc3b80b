import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serveBackgroundTasks } from '../../server/core/background/worker-runtime.js';

/** A background worker for the pool's tests: tasks that answer, wait, or take their process down. */
void serveBackgroundTasks(async () => ({
  pid: () => Promise.resolve(process.pid),
  /** Holds the worker `ms`, then says which process it was. */
  hold: async (input) => {
    await sleep((input as { ms: number }).ms);
    return process.pid;
  },
  /**
   * Waits until `count` tasks have met in `dir` (each leaves a file there), then says which process
   * it was: tasks that meet ran at the same time, however slowly their workers started.
   */
  meet: async (input) => {
    const { dir, count } = input as { dir: string; count: number };
    writeFileSync(path.join(dir, `${process.pid}-${Math.random()}`), '');
    while (readdirSync(dir).length < count) await sleep(10);
    return process.pid;
  },
  /** Holds the worker `ms` with a file of its own in `dir`, and says how many such files it saw at most (itself included). */
  overlap: async (input) => {
    const { dir, ms } = input as { dir: string; ms: number };
    const mine = path.join(dir, `${process.pid}-${Math.random()}`);
    writeFileSync(mine, '');
    const before = readdirSync(dir).length;
    await sleep(ms);
    const after = readdirSync(dir).length;
    rmSync(mine);
    return Math.max(before, after);
  },
  /** The first call ends its process (the marker file says it happened); the next answers. */
  crashOnce: (input) => {
    const marker = (input as { marker: string }).marker;
    if (!existsSync(marker)) {
      writeFileSync(marker, '');
      process.exit(9);
    }
    return Promise.resolve('made on the second try');
  },
  crash: () => process.exit(9),
  refuse: () => Promise.reject(new RangeError('not this one')),
}));
