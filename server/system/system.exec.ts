import { execFile } from 'node:child_process';
import { isAllowedCommand, type CommandResult, type RunOptions, type SystemCommand, type SystemPort } from './system.port.js';

/** Runs allowed programs with execFile (never a shell), with a deadline. */
export function createExecSystem(): SystemPort {
  return {
    run(command: SystemCommand, args: readonly string[], options: RunOptions = {}): Promise<CommandResult> {
      if (!isAllowedCommand(command)) return Promise.reject(new Error(`Command not allowed: ${String(command)}`));
      return new Promise((resolve) => {
        execFile(
          command,
          [...args],
          { shell: false, timeout: options.timeoutMs ?? 15_000, env: { ...process.env, ...options.env }, maxBuffer: 1024 * 1024 },
          (error, stdout, stderr) => {
            if (!error) return resolve({ code: 0, stdout, stderr });
            const code = typeof error.code === 'number' ? error.code : 127;
            resolve({ code, stdout, stderr: stderr || error.message });
          },
        );
      });
    },
  };
}
