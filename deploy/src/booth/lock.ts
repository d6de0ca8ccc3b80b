import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The deploy lock: util-linux flock(1) holds it in a child for as long as this process lives. The
 * child waits on a pipe from us; when we exit, however we exit (a kill included), the pipe closes,
 * the child ends and the kernel releases the lock. No stale lock is ever left behind.
 *
 * The holder ignores SIGTERM, SIGINT and SIGHUP: systemd stops a unit by signalling every process
 * of it at once, and a holder that died with that signal would free the lock while the deploy it
 * belongs to still settles the switch (a SIGTERM brings the booth to a running release first), so
 * the recover watcher would run the same switch beside it. The lock goes when the deploy exits.
 */
export interface HeldLock {
  /** Lets the lock go; resolves once it is free again (the holder has exited). */
  release(): Promise<void>;
}

/** The holder: signals ignored (inherited through exec by flock and cat), then flock on FILE ($0). */
const HOLDER = (wait: boolean): string =>
  `trap '' TERM INT HUP; exec flock ${wait ? '' : '-n '}-E 73 "$0" sh -c 'echo held && exec cat >/dev/null'`;

/**
 * Takes the lock on FILE. WAIT: until it is free, or until SIGNAL aborts the wait (the waiting
 * holder is then killed: a watcher told to stop does not linger); otherwise at once or not at all.
 */
export function acquireLock(file: string, wait: boolean, signal?: AbortSignal): Promise<HeldLock | undefined> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn('sh', ['-c', HOLDER(wait), file], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      return resolve(undefined);
    }
    let answered = false;
    const giveUp = (): void => {
      child.kill('SIGKILL');
    };
    const answer = (lock: HeldLock | undefined): void => {
      if (answered) return;
      answered = true;
      signal?.removeEventListener('abort', giveUp);
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
    if (signal?.aborted) giveUp();
    else signal?.addEventListener('abort', giveUp, { once: true });
  });
}
