import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program with fixed arguments (never a shell, never text from outside as an option), its
 * output bounded, within a time limit. A program that is not there answers code 127.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string; cwd?: string } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      {
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 4 * 1024 * 1024,
        cwd: options.cwd,
        killSignal: 'SIGKILL',
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : err.code === 'ENOENT' ? 127 : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Alive and not a zombie (a child that exited but was not waited for yet). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A process's command line, its arguments separated by spaces ('' once it has gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Starts a program in a session of its own, detached from this one: nothing of ours ends it. */
export function spawnDetached(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: number | 'ignore',
): number | undefined {
  const child = spawn(file, args, { env, detached: true, stdio: ['ignore', output, output] });
  child.on('error', () => undefined);
  child.unref();
  return child.pid;
}
