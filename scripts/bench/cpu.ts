import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux.

/** utime, stime, cutime, cstime of /proc/<pid>/stat, in ms; zeros once the process is gone. */
function statTimes(pid: number): { own: number; reaped: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // Fields 14–17 of proc(5), counted from 1 with pid and comm as 1 and 2.
    return { own: ((f[11] ?? 0) + (f[12] ?? 0)) * TICK_MS, reaped: ((f[13] ?? 0) + (f[14] ?? 0)) * TICK_MS };
  } catch {
    return { own: 0, reaped: 0 };
  }
}

/** The live children of a process (its background workers, rclone, ffmpeg, lpstat). */
function childrenOf(pid: number): number[] {
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
