import type { LoweredPriority } from './own-priority.js';

/** A task's handler, the same in a worker process and in-process: plain data in, plain data out. */
export type TaskHandler = (input: unknown) => Promise<unknown>;
export type TaskHandlers = Readonly<Record<string, TaskHandler>>;

/** The service asks a worker. */
export interface TaskMessage {
  type: 'task';
  id: number;
  name: string;
  input: unknown;
}

/** A worker answers (Buffers cross as they are: the channel uses V8's serialization). */
export type WorkerMessage =
  | { type: 'ready'; lowered: LoweredPriority }
  | { type: 'done'; id: number; output: unknown }
  | { type: 'failed'; id: number; error: { name: string; message: string } };

/**
 * A task that failed: `name` is the error's class name in the worker (for the caller to map back
 * to its own error), or 'WorkerCrashedError' when the process died twice under it.
 */
export class BackgroundTaskError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

export const WORKER_CRASHED = 'WorkerCrashedError';
