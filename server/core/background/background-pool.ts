import { fork, type ChildProcess } from 'node:child_process';
import type { Clock, TimerHandle } from '../clock/clock.port.js';
import { MALLOC_ARENAS, V8_MEMORY_FLAGS } from '../host-memory.js';
import type { Logger } from '../logger.js';
import { BackgroundTaskError, WORKER_CRASHED, type TaskHandlers, type TaskMessage, type WorkerMessage } from './background.protocol.js';
import type { BoardLoad } from './board-load.js';
import { BACKGROUND_NICE, BACKGROUND_PRIORITY_VARIABLE, backgroundPriority, lowerChild, type LoweredPriority } from './own-priority.js';
import type { WorkerEntry } from './worker-entry.js';

export interface BackgroundPoolOptions {
  /** The worker script; undefined runs every task in-process (sources without tsx). */
  entry: WorkerEntry | undefined;
  /** The same handlers, loaded in-process only when no worker can run. */
  inline: () => Promise<TaskHandlers>;
  load: BoardLoad;
  clock: Clock;
  log: Logger;
  /** A worker with nothing to do exits after this long: at rest, no process waits. */
  idleExitMs?: number;
}

interface Job {
  id: number;
  name: string;
  input: unknown;
  /** Workers that died under this job. */
  deaths: number;
  resolve: (output: unknown) => void;
  reject: (err: Error) => void;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  job: Job | undefined;
  idleTimer: TimerHandle | undefined;
}

const IDLE_EXIT_MS = 30_000;
/** How long a worker told to leave may take before it is killed. */
const END_GRACE_MS = 5000;
/** A task under which two workers died is given up (a file that crashes the decoder): the next goes on. */
const DEATHS_PER_TASK = 2;
/** Workers that die before they are ready this many times in a row: the machine cannot run them. */
const FAILED_STARTS_BEFORE_INLINE = 3;

/**
 * What a worker may see of the service's environment: where programs, files and the locale are,
 * and the booth's allocator setting (host-memory.ts), whatever the service's own host set.
 * No PIN, password or token of the service's reaches it. An Electron host's executable runs as
 * plain Node only when told so.
 */
export function workerEnvironment(): Record<string, string> {
  const env: Record<string, string> = { MALLOC_ARENA_MAX: MALLOC_ARENAS };
  if (backgroundPriority() === 'normal') env[BACKGROUND_PRIORITY_VARIABLE] = 'normal';
  for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'NODE_ENV']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  return env;
}

/**
 * Runs CPU-heavy background work (thumbnails made ahead, posters) in worker processes below the
 * capture app: each worker lowers itself to nice 19, SCHED_IDLE and idle I/O (own-priority.ts; the
 * pool also sets nice 19 on it right after the fork), and there are only as many as the board's
 * load allows (BoardLoad), started when work comes and gone after a quiet while. A worker that
 * dies is replaced and its task tried once more; the service itself never dies with it.
 */
export class BackgroundPool {
  private readonly queue: Job[] = [];
  private readonly workers = new Set<Worker>();
  private nextId = 1;
  private failedStarts = 0;
  private inlineHandlers: Promise<TaskHandlers> | undefined;
  private closed = false;
  private reported = false;

  constructor(private readonly options: BackgroundPoolOptions) {}

  /** Runs one task at background priority and resolves with its output. */
  run<T>(name: string, input: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The background pool is closed'));
    if (!this.options.entry || this.failedStarts >= FAILED_STARTS_BEFORE_INLINE) return this.runInline(name, input) as Promise<T>;
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, name, input, deaths: 0, resolve: resolve as (o: unknown) => void, reject });
      this.pump();
    });
  }

  /** The worker processes alive now (tests read their priority from /proc). */
  pids(): number[] {
    return [...this.workers].map((w) => w.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Ends every worker; tasks still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The service stopped'));
    await Promise.all([...this.workers].map((w) => this.end(w)));
  }

  private runInline(name: string, input: unknown): Promise<unknown> {
    this.inlineHandlers ??= this.options.inline();
    return this.inlineHandlers.then((handlers) => {
      const handler = handlers[name];
      if (!handler) throw new Error(`No background task named ${name}`);
      return handler(input);
    });
  }

  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const job = this.queue[0];
      if (!job) return;
      const busy = [...this.workers].filter((w) => w.job).length;
      if (busy >= this.options.load.limit()) return;
      const free = [...this.workers].find((w) => w.ready && !w.job);
      if (free) {
        this.queue.shift();
        this.assign(free, job);
        continue;
      }
      // One worker starting at a time: it takes the next job once ready, and pumps again.
      if (![...this.workers].some((w) => !w.ready)) this.spawn();
      return;
    }
  }

  private assign(worker: Worker, job: Job): void {
    if (worker.idleTimer) this.options.clock.clearTimeout(worker.idleTimer);
    worker.idleTimer = undefined;
    worker.job = job;
    worker.child.ref();
    worker.child.send({ type: 'task', id: job.id, name: job.name, input: job.input } satisfies TaskMessage);
  }

  private spawn(): void {
    const entry = this.options.entry as WorkerEntry;
    // Started at nice 19 (below), not at SCHED_IDLE: a guest may be waiting for the first-screen
    // thumbnail this worker will make, and beside a capture app that keeps every core busy a
    // worker started at SCHED_IDLE took a minute to load sharp (the share bench's rounds).
    const child = fork(entry.file, [], {
      execArgv: [...V8_MEMORY_FLAGS, ...entry.execArgv],
      env: workerEnvironment(),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { child, ready: false, job: undefined, idleTimer: undefined };
    this.workers.add(worker);
    // At once, before Node in the child has started its own threads; the worker lowers itself too.
    lowerChild(child.pid);
    child.on('message', (message: WorkerMessage) => this.heard(worker, message));
    let gone = false;
    const onGone = (why: string): void => {
      if (gone) return;
      gone = true;
      this.died(worker, why);
    };
    child.once('exit', (code, signal) => onGone(signal ? `signal ${signal}` : `code ${code}`));
    child.once('error', (err) => onGone(err.message));
  }

  private heard(worker: Worker, message: WorkerMessage): void {
    if (message.type === 'ready') {
      worker.ready = true;
      this.failedStarts = 0;
      this.report(message.lowered);
      this.idle(worker);
      this.pump();
      return;
    }
    const job = worker.job;
    if (!job || job.id !== message.id) return;
    worker.job = undefined;
    if (message.type === 'done') job.resolve(message.output);
    else job.reject(new BackgroundTaskError(message.error.name, message.error.message));
    this.idle(worker);
    this.pump();
  }

  /** Once, what the system allowed: the bench and the operator can tell whether workers truly run below. */
  private report(lowered: LoweredPriority): void {
    if (this.reported) return;
    this.reported = true;
    if (backgroundPriority() === 'normal') {
      this.options.log.info(
        `Background work runs in worker processes at the service's own priority (${BACKGROUND_PRIORITY_VARIABLE}=normal)`,
      );
      return;
    }
    const parts = [
      lowered.nice ? `nice ${BACKGROUND_NICE}` : 'normal priority (nice refused)',
      lowered.idleScheduling ? 'SCHED_IDLE' : 'no SCHED_IDLE',
      lowered.idleIo ? 'idle I/O' : 'normal I/O',
    ];
    this.options.log.info(`Background work runs in worker processes at ${parts.join(', ')}; ${this.options.load.describe()}`);
  }

  private idle(worker: Worker): void {
    if (worker.job || this.closed) return;
    worker.child.unref();
    if (worker.idleTimer) this.options.clock.clearTimeout(worker.idleTimer);
    worker.idleTimer = this.options.clock.setTimeout(() => {
      worker.idleTimer = undefined;
      if (!worker.job) void this.end(worker);
    }, this.options.idleExitMs ?? IDLE_EXIT_MS);
  }

  private died(worker: Worker, why: string): void {
    this.workers.delete(worker);
    if (worker.idleTimer) this.options.clock.clearTimeout(worker.idleTimer);
    const job = worker.job;
    worker.job = undefined;
    if (this.closed) {
      job?.reject(new Error('The service stopped'));
      return;
    }
    if (!worker.ready) {
      this.failedStarts++;
      if (this.failedStarts >= FAILED_STARTS_BEFORE_INLINE) {
        this.options.log.warn(`Background workers cannot start here (${why}); background work runs in the service's own process`);
        for (const waiting of this.queue.splice(0)) this.runInline(waiting.name, waiting.input).then(waiting.resolve, waiting.reject);
        return;
      }
    }
    if (job) {
      job.deaths++;
      this.options.log.warn(`A background worker stopped (${why}) during a ${job.name} task`);
      if (job.deaths >= DEATHS_PER_TASK) job.reject(new BackgroundTaskError(WORKER_CRASHED, `the worker stopped twice (${why})`));
      else this.queue.unshift(job);
    }
    this.pump();
  }

  /**
   * Closes a worker's channel (it exits on its own) and waits for it to be gone. A worker that
   * has not left after END_GRACE_MS is killed: at SCHED_IDLE on a board whose cores the capture app
   * keeps busy, it may not get the moment it needs to exit, and the service's stop must not wait.
   */
  private end(worker: Worker): Promise<void> {
    const child = worker.child;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = this.options.clock.setTimeout(() => child.kill('SIGKILL'), END_GRACE_MS);
      child.once('exit', () => {
        this.options.clock.clearTimeout(kill);
        resolve();
      });
      if (child.connected) child.disconnect();
      else child.kill('SIGTERM');
    });
  }
}
