import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux.

/** A process's or thread's name and CPU (utime + stime + what it reaped), in ms; undefined once gone. */
function statOf(file: string): { comm: string; own: number; reaped: number } | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // Fields 14–17 of proc(5), counted from 1 with pid and comm as 1 and 2.
    return { comm, own: ((f[11] ?? 0) + (f[12] ?? 0)) * TICK_MS, reaped: ((f[13] ?? 0) + (f[14] ?? 0)) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** utime + stime, and cutime + cstime, of /proc/<pid>/stat, in ms; zeros once the process is gone. */
function statTimes(pid: number): { own: number; reaped: number } {
  const stat = statOf(`/proc/${pid}/stat`);
  return { own: stat?.own ?? 0, reaped: stat?.reaped ?? 0 };
}

/** The live children of a process (its background workers, rclone, ffmpeg, lpstat). */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** CPU a service has used, in ms: its own process, and its children (live ones and those it has reaped). */
export function cpuOf(pid: number): { main: number; children: number; total: number } {
  const self = statTimes(pid);
  const live = childrenOf(pid).reduce((sum, child) => sum + cpuOf(child).total, 0);
  const children = self.reaped + live;
  return { main: self.own, children, total: self.own + children };
}

export const EXPORT_PROCESS = 'the export process';

/** What a child of the service is, by its command line: the export process, a thumbnail worker, rclone… */
export function childLabel(pid: number): string {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return 'a child';
  }
  const line = argv.join(' ');
  if (line.includes('export.worker')) return EXPORT_PROCESS;
  if (line.includes('background.worker')) return 'the background workers';
  return path.basename(argv[0] ?? 'a child');
}

/** The service's threads by role: its main thread, libuv's file threads, V8's and the rest. */
function threadLabel(pid: number, tid: number, comm: string): string {
  if (tid === pid) return "the service's main thread";
  if (comm.startsWith('libuv-worker')) return "the service's file threads";
  return "the service's other threads (V8, GC)";
}

/**
 * Splits the CPU a service uses by task while it runs: its threads by role and its children by
 * program, sampled every 250 ms so that short-lived children (an rclone upload, an lpstat) are
 * seen; what children that ended between two samples used is counted apart.
 */
export class TaskSampler {
  private readonly threads0 = new Map<string, number>();
  private readonly seen = new Map<number, { label: string; first: number; last: number }>();
  private readonly reaped0: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    for (const [label, ms] of this.threadTimes()) this.threads0.set(label, ms);
    this.reaped0 = statOf(`/proc/${pid}/stat`)?.reaped ?? 0;
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), 250);
  }

  /** CPU ms by task since the sampler started. */
  stop(): Map<string, number> {
    clearInterval(this.timer);
    this.sample(false);
    const out = new Map<string, number>();
    const add = (label: string, ms: number): void => void out.set(label, (out.get(label) ?? 0) + ms);
    for (const [label, ms] of this.threadTimes()) add(label, ms - (this.threads0.get(label) ?? 0));
    const alive = new Set(childrenOf(this.pid));
    let vanished = 0;
    for (const [pid, kid] of this.seen) {
      add(kid.label, kid.last - kid.first);
      if (!alive.has(pid)) vanished += kid.last;
    }
    const reaped = (statOf(`/proc/${this.pid}/stat`)?.reaped ?? 0) - this.reaped0;
    add('children that ended between samples', Math.max(0, reaped - vanished));
    return out;
  }

  private threadTimes(): Map<string, number> {
    const times = new Map<string, number>();
    let tids: number[];
    try {
      tids = readdirSync(`/proc/${this.pid}/task`).map(Number);
    } catch {
      return times;
    }
    for (const tid of tids) {
      const t = statOf(`/proc/${this.pid}/task/${tid}/stat`);
      if (!t) continue;
      const label = threadLabel(this.pid, tid, t.comm);
      times.set(label, (times.get(label) ?? 0) + t.own);
    }
    return times;
  }

  private sample(atStart: boolean): void {
    for (const pid of childrenOf(this.pid)) {
      const total = cpuOf(pid).total;
      const known = this.seen.get(pid);
      if (known) known.last = total;
      else this.seen.set(pid, { label: childLabel(pid), first: atStart ? total : 0, last: total });
    }
  }
}

/** A process's stdout as JSON lines, each handed to whoever waits for the next one. */
export class JsonLines {
  private readonly waiting: ((line: unknown) => void)[] = [];
  private readonly lines: unknown[] = [];

  constructor(child: ChildProcess) {
    createInterface({ input: child.stdout as Readable }).on('line', (line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      const next = this.waiting.shift();
      if (next) next(value);
      else this.lines.push(value);
    });
  }

  next<T>(): Promise<T> {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift() as T);
    return new Promise((resolve) => this.waiting.push(resolve as (line: unknown) => void));
  }
}

/** A bench script (TypeScript, through tsx) in a process of its own. */
export function benchScript(file: string, args: string[]): { child: ChildProcess; lines: JsonLines } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, file), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return { child, lines: new JsonLines(child) };
}

const readOr = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** A CPU limit put on a running process and the children it starts afterwards. */
export interface CpuLimit {
  how: string;
  release(): void;
}

/**
 * Limits a process to `percent` % of one core, as a Pi 4 leaves Boothdeck beside the capture app
 * and Chromium: a cgroup v2 child with `cpu.max`, else a cgroup v1 `cpu` child with a CFS quota
 * (this machine, a container with a writable v1 hierarchy). Undefined where neither is writable:
 * then `systemd-run --user --scope -p CPUQuota=30% npm start` is the way (docs/bench.md).
 */
export function limitCpu(pid: number, percent: number): CpuLimit | undefined {
  // A short period: a Pi's core is slower at every step, not a fast core stopped for 70 ms of
  // every 100 (the default period would add such stalls to every request).
  const period = 10_000;
  const quota = Math.round((period * percent) / 100);
  const attempts: [string, string, (dir: string) => void][] = [
    ['/sys/fs/cgroup', 'cgroup v2 cpu.max', (dir) => writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${period}`)],
    [
      '/sys/fs/cgroup/cpu',
      'cgroup v1 cpu.cfs_quota_us',
      (dir) => {
        writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
        writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
      },
    ],
  ];
  for (const [root, how, set] of attempts) {
    const v2 = how.startsWith('cgroup v2');
    if (v2 && !readOr(path.join(root, 'cgroup.controllers')).split(/\s+/).includes('cpu')) continue;
    if (!v2 && !existsSync(path.join(root, 'cpu.cfs_quota_us'))) continue;
    const dir = path.join(root, `boothdeck-bench-${process.pid}`);
    try {
      mkdirSync(dir);
      set(dir);
      writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
      return {
        how: `${how} ${quota}/${period} µs (${percent} % of one core)`,
        release: () => {
          try {
            for (const p of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
              writeFileSync(path.join(root, 'cgroup.procs'), p);
            rmdirSync(dir);
          } catch {
            /* the processes are gone with the bench */
          }
        },
      };
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        /* never made */
      }
    }
  }
  return undefined;
}
