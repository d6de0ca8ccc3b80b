import { existsSync, readFileSync } from 'node:fs';
import type { UnitState } from '../rules/unit-state.js';
import { runCommand, type CommandResult } from './process.js';

/**
 * The user's systemd, through systemctl and systemd-run. `systemctl --user` finds the user's
 * manager through XDG_RUNTIME_DIR, which sudo (the runner's own user deploying as the booth's)
 * leaves unset: it is set here from the user id.
 */
export function userManagerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.XDG_RUNTIME_DIR) return env;
  const uid = process.getuid?.();
  if (uid === undefined) return env;
  if (!existsSync(`/run/user/${uid}`)) return env;
  return { ...env, XDG_RUNTIME_DIR: `/run/user/${uid}` };
}

export class Systemd {
  private readonly env = userManagerEnv();

  private user(args: string[], timeoutMs = 120_000): Promise<CommandResult> {
    return runCommand('systemctl', ['--user', ...args], { env: this.env, timeoutMs });
  }

  /** The unit's state; undefined when the user's manager cannot be asked. */
  async show(unit: string): Promise<UnitState | undefined> {
    const { code, stdout } = await this.user(
      ['show', '-p', 'ActiveState', '-p', 'SubState', '-p', 'NRestarts', '-p', 'ExecMainPID', unit],
      15_000,
    );
    if (code !== 0) return undefined;
    const props = new Map(
      stdout
        .split('\n')
        .map((l) => l.split('='))
        .filter((p): p is [string, string] => p.length === 2),
    );
    const active = props.get('ActiveState');
    if (!active) return undefined;
    const number = (key: string): number => {
      const n = Number(props.get(key));
      return Number.isInteger(n) && n >= 0 ? n : 0;
    };
    return { active, sub: props.get('SubState') ?? '', restarts: number('NRestarts'), mainPid: number('ExecMainPID') };
  }

  async start(unit: string): Promise<boolean> {
    return (await this.user(['start', unit])).code === 0;
  }

  /** Queues the start and returns at once (a oneshot unit that waits for something). */
  async startNoBlock(unit: string): Promise<boolean> {
    return (await this.user(['start', '--no-block', unit], 15_000)).code === 0;
  }

  async stop(unit: string): Promise<boolean> {
    return (await this.user(['stop', unit])).code === 0;
  }

  async daemonReload(): Promise<boolean> {
    return (await this.user(['daemon-reload'])).code === 0;
  }

  async enable(unit: string, now = false): Promise<boolean> {
    return (await this.user(['enable', ...(now ? ['--now'] : []), unit])).code === 0;
  }

  /** A unit of the system's manager (the firewall's), asked without sudo. */
  async systemActive(unit: string): Promise<boolean> {
    return (await runCommand('systemctl', ['is-active', '--quiet', unit], { timeoutMs: 15_000 })).code === 0;
  }

  /**
   * Runs a command in a transient unit of the user's manager: no hang-up, job cancellation or ssh
   * exit reaches it. Only the variables named are passed on.
   */
  async runTransient(unitName: string, argv: readonly string[], setenv: Record<string, string>, output: string): Promise<boolean> {
    const env = Object.entries(setenv).map(([k, v]) => `--setenv=${k}=${v}`);
    const result = await runCommand(
      'systemd-run',
      [
        '--user',
        '--quiet',
        '--collect',
        `--unit=${unitName}`,
        `--property=StandardOutput=append:${output}`,
        `--property=StandardError=append:${output}`,
        ...env,
        '--',
        ...argv,
      ],
      { env: this.env, timeoutMs: 30_000 },
    );
    return result.code === 0;
  }
}

/** This boot's id: monotonic times are comparable only within one boot. */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

/** CLOCK_MONOTONIC in milliseconds: the same clock in every process of this boot. */
export const monotonicMs = (): number => Number(process.hrtime.bigint() / 1_000_000n);
