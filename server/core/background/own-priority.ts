import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** The lowest CPU priority a process can give itself without privileges. */
export const BACKGROUND_NICE = 19;

/**
 * `BOOTHDECK_BACKGROUND_PRIORITY=normal` keeps background work (workers, the export process,
 * ffmpeg, rclone) at the service's own priority instead of below everything else. For test
 * runners: on a machine whose every core something else keeps busy (a CI runner beside another
 * suite, `stress-ng`), work at SCHED_IDLE never runs, and a test waiting for it would fail on the
 * machine's load, not on the code. A booth leaves it unset. Children get it from workerEnvironment.
 */
export const BACKGROUND_PRIORITY_VARIABLE = 'BOOTHDECK_BACKGROUND_PRIORITY';

/** Where background work runs now: `lowest` (a booth) unless the environment says `normal`. */
export function backgroundPriority(): 'lowest' | 'normal' {
  return process.env[BACKGROUND_PRIORITY_VARIABLE] === 'normal' ? 'normal' : 'lowest';
}

/**
 * Lowers a program just started to nice 19, on its pid only, right after the spawn: the threads
 * it starts afterwards inherit it. Quietly nothing where the system refuses (the program then
 * runs at the service's own priority, which the booth's unit already sets below the capture app's;
 * a worker's own attempt decides).
 */
export function lowerChild(pid: number | undefined): void {
  if (pid === undefined || backgroundPriority() === 'normal') return;
  try {
    os.setPriority(pid, BACKGROUND_NICE);
  } catch {
    /* refused or already gone: nothing to lower */
  }
}

/** util-linux's chrt, looked for in the system's own folders only (never the service's PATH). */
const CHRT = ['/usr/bin/chrt', '/bin/chrt'].find((file) => existsSync(file));
/** Whether `chrt --idle 0` may start a program here (a container's seccomp may refuse it): asked once. */
let idleStart: Promise<boolean> | undefined;
let idleStartWorks = false;

/**
 * Asks once whether a program can be started at SCHED_IDLE (`chrt --idle 0 true`), so that the
 * next background process is. Until the answer comes, and where it is no, processes start at nice
 * 19 alone and lower themselves once running.
 */
export function probeIdleStart(): Promise<boolean> {
  idleStart ??= CHRT
    ? new Promise<boolean>((resolve) => {
        execFile(CHRT, ['--idle', '0', 'true'], { shell: false, timeout: 5000, env: TOOL_ENV }, (error) => resolve(!error));
      }).then((works) => (idleStartWorks = works))
    : Promise.resolve(false);
  return idleStart;
}

/**
 * How to fork the export process so that it runs at SCHED_IDLE from its first instruction:
 * through `chrt --idle 0 <node>`, which sets the policy and then execs Node (the IPC channel and
 * the environment pass through the exec). Node's start and the loading of its modules, about
 * 100 ms of CPU, then take nothing from the capture app; started at nice 19 alone, they took their
 * share of a core beside it for seconds (0.4 % of the cores over an evening, in the share bench).
 * Thumbnail workers are not started so (background-pool.ts): a guest may wait for their work.
 * Plain Node where that cannot be, or where the runner keeps background work at normal priority.
 */
export function backgroundLaunch(): { execPath: string; execArgvBefore: string[] } {
  if (backgroundPriority() === 'normal') return { execPath: process.execPath, execArgvBefore: [] };
  void probeIdleStart();
  if (!CHRT || !idleStartWorks) return { execPath: process.execPath, execArgvBefore: [] };
  return { execPath: CHRT, execArgvBefore: ['--idle', '0', process.execPath] };
}

/** What a background process managed to lower; a machine that refuses one keeps the others. */
export interface LoweredPriority {
  nice: boolean;
  /** SCHED_IDLE: runs only on a processor nothing else wants. */
  idleScheduling: boolean;
  /** The idle I/O class: reads only when no one else waits for the disk. */
  idleIo: boolean;
}

/**
 * Only the machine's programs, no service variable: the tools below need nothing else, and
 * nothing of Boothdeck's configuration reaches them.
 */
const TOOL_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' };

/** Every thread of this process: Linux sets nice and I/O priority per thread, not per process. */
function ownThreads(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number).filter(Number.isInteger);
  } catch {
    return [process.pid];
  }
}

/** Runs a util-linux tool with fixed arguments (only numbers of this process); false when it is missing or refused. */
function tool(command: 'chrt' | 'ionice', args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(command, args, { shell: false, timeout: 5000, env: TOOL_ENV }, (error) => resolve(!error));
  });
}

/**
 * Lowers this whole process below everything else on the board: nice 19 on each of its threads
 * (threads started afterwards inherit it), SCHED_IDLE on all of them (`chrt --idle -a -p 0`),
 * and the idle I/O class (`ionice -c 3`). Each falls back quietly where the system refuses it (no
 * util-linux, a container's seccomp): nice alone already leaves the capture app 98 % of a
 * shared core. Called by a worker on itself, before it loads any work.
 */
export async function lowerOwnPriority(): Promise<LoweredPriority> {
  if (backgroundPriority() === 'normal') return { nice: false, idleScheduling: false, idleIo: false };
  const threads = ownThreads();
  let nice = true;
  for (const tid of threads) {
    try {
      os.setPriority(tid, BACKGROUND_NICE);
    } catch {
      nice = false;
    }
  }
  const pid = String(process.pid);
  const [idleScheduling, idleIo] = await Promise.all([
    tool('chrt', ['--idle', '--all-tasks', '--pid', '0', pid]),
    tool('ionice', ['-c', '3', '-p', ...threads.map(String)]),
  ]);
  return { nice, idleScheduling, idleIo };
}

/** A process's nice value and scheduling policy as the kernel reports them (/proc/<pid>/stat), or undefined. */
export function readSchedulingOf(pid: number): { nice: number; policy: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 19 (nice) and 41 (policy) of proc(5), counted from 1 with pid and comm as 1 and 2.
    return { nice: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) };
  } catch {
    return undefined;
  }
}

/** SCHED_IDLE's number in /proc/<pid>/stat's policy field. */
export const SCHED_IDLE = 5;
