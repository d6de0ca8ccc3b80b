import { existsSync, writeFileSync } from 'node:fs';
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
