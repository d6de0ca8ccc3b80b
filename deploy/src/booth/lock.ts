import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The deploy lock: util-linux flock(1) holds it in a child for as long as this process lives. The
 * child waits on a pipe from us; when we exit, however we exit (a kill included), the pipe closes,
 * the child ends and the kernel releases the lock. No stale lock is ever left behind.
 */
export interface HeldLock {
  /** Lets the lock go; resolves once it is free again (the holder has exited). */
  release(): Promise<void>;
}

export function acquireLock(file: string, wait: boolean): Promise<HeldLock | undefined> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn('flock', [...(wait ? [] : ['-n']), '-E', '73', file, 'sh', '-c', 'echo held && exec cat >/dev/null'], {
        stdio: ['pipe', 'pipe', 'ignore'],
      });
    } catch {
      return resolve(undefined);
    }
    let answered = false;
    const answer = (lock: HeldLock | undefined): void => {
      if (answered) return;
      answered = true;
      resolve(lock);
    };
    child.on('error', () => answer(undefined));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.stdout?.once('data', () =>
      answer({
        release: () => {
          child.stdin?.end();
          return exited;
        },
      }),
    );
    child.on('exit', () => answer(undefined));
  });
}
