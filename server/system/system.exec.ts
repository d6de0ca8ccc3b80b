import { execFile, type ExecFileException } from 'node:child_process';
import { lowerChild } from '../core/background/own-priority.js';
import { childEnvironment } from './child-env.js';
import { isAllowedCommand, type CommandResult, type RunOptions, type SystemCommand, type SystemPort } from './system.port.js';

/**
 * The shell's conventions, so callers can tell why a program gave no answer: 127 when it is not
 * installed, 124 when it ran past its deadline.
 */
function exitCodeOf(error: ExecFileException): number {
  if (typeof error.code === 'number') return error.code;
  if (error.code === 'ENOENT') return 127;
  return error.killed ? 124 : 1;
}

/**
 * Runs allowed programs with execFile (never a shell), with a deadline and only an allowlisted
 * environment. `defaults` apply to every run (a port given to background work runs all its
 * programs at background priority).
 */
export function createExecSystem(defaults: Pick<RunOptions, 'priority'> = {}): SystemPort {
  return {
    run(command: SystemCommand, args: readonly string[], options: RunOptions = {}): Promise<CommandResult> {
      if (!isAllowedCommand(command)) return Promise.reject(new Error(`Command not allowed: ${String(command)}`));
      return new Promise((resolve) => {
        const child = execFile(
          command,
          [...args],
          {
            shell: false,
            timeout: options.timeoutMs ?? 15_000,
            env: childEnvironment(command, process.env, options.env),
            maxBuffer: 1024 * 1024,
          },
          (error, stdout, stderr) => {
            if (!error) return resolve({ code: 0, stdout, stderr });
            const code = exitCodeOf(error);
            resolve({ code, stdout, stderr: stderr || error.message });
          },
        );
        if ((options.priority ?? defaults.priority) === 'background') lowerChild(child.pid);
      });
    },
  };
}
