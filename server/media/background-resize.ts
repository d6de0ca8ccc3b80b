import { BackgroundPool } from '../core/background/background-pool.js';
import { BackgroundTaskError, WORKER_CRASHED } from '../core/background/background.protocol.js';
import { BoardLoad, type BoardLoadOptions } from '../core/background/board-load.js';
import { resolveWorkerEntry } from '../core/background/worker-entry.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { ResizeTask } from './background-tasks.js';
import { UnreadableMediaError, type ResizeOptions } from './image-decoder.js';

/** resizeBounded's shape, wherever it runs. */
export type Resize = (input: Buffer | string, options: ResizeOptions) => Promise<Buffer>;

/** The media work made below the capture app: a pool of low-priority workers running background.worker. */
export interface BackgroundMedia {
  resize: Resize;
  pool: BackgroundPool;
  /**
   * A lane of its own, one worker, for long file work (the online gallery's ZIP of up to 500 MB
   * and its sealing): a new photo's thumbnail never waits behind it.
   */
  files: BackgroundPool;
}

export interface BackgroundMediaOptions {
  clock: Clock;
  log: Logger;
  /** Board readings (pressure file, throttling); the real ones unless given. */
  load?: Partial<Omit<BoardLoadOptions, 'now'>>;
  idleExitMs?: number;
  /**
   * Where the work runs. Built (dist: `npm start`, the kiosk, the bench's service), in worker
   * processes. From sources (vitest, services the bench starts in its own process), in-process
   * unless asked: a test's timing is then the code's, not a low-priority process's on a busy
   * machine, and no test starts processes it does not check. The pool's own tests ask for them.
   */
  workers?: 'processes' | 'in-process';
}

const built = import.meta.url.endsWith('.js');

/**
 * A resize in a background worker, failing as resizeBounded does: any refusal of the file, or a
 * decoder that took the worker down twice, is an UnreadableMediaError (a placeholder stands).
 */
export function createBackgroundMedia(options: BackgroundMediaOptions): BackgroundMedia {
  const entry =
    (options.workers ?? (built ? 'processes' : 'in-process')) === 'processes'
      ? resolveWorkerEntry(import.meta.url, 'background.worker')
      : undefined;
  const pool = new BackgroundPool({
    entry,
    inline: async () => (await import('./background-tasks.js')).backgroundTasks(),
    load: new BoardLoad({ ...options.load, now: () => options.clock.monotonic() }),
    clock: options.clock,
    log: options.log,
    idleExitMs: options.idleExitMs,
  });
  const resize: Resize = async (input, resizeOptions) => {
    try {
      const output = await pool.run<Uint8Array>('resize', { input, options: resizeOptions } satisfies ResizeTask);
      return Buffer.isBuffer(output) ? output : Buffer.from(output.buffer, output.byteOffset, output.byteLength);
    } catch (err) {
      if (err instanceof BackgroundTaskError && (err.errorName === UnreadableMediaError.name || err.errorName === WORKER_CRASHED)) {
        throw new UnreadableMediaError(err.message);
      }
      throw err;
    }
  };
  const files = new BackgroundPool({
    entry,
    inline: async () => (await import('./background-tasks.js')).backgroundTasks(),
    load: new BoardLoad({ ...options.load, max: 1, now: () => options.clock.monotonic() }),
    clock: options.clock,
    log: options.log,
    idleExitMs: options.idleExitMs,
  });
  return { resize, pool, files };
}
