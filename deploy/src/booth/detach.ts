import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { SETTING_VARIABLES } from '../rules/settings.js';
import type { Ctx } from './context.js';
import { spawnDetached } from './process.js';

/**
 * Runs this program again (`ARGS`) outside the caller's session: a transient unit of the user's
 * systemd (which no hang-up, job cancellation or ssh exit reaches), else a session of its own
 * without the runner's tracking id (the runner kills, after its job, every process carrying it).
 * Its output goes to runs/NAME.out. Answers where it runs (the unit, or the process), undefined if it could not start.
 */
export async function detach(ctx: Ctx, name: string, args: readonly string[]): Promise<string | undefined> {
  const { paths, self } = ctx;
  mkdirSync(paths.runs, { recursive: true });
  const output = path.join(paths.runs, `${name}.out`);
  const argv = ['/bin/sh', self.launcher, ...args];
  const setenv: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (const key of SETTING_VARIABLES) {
    const value = process.env[key];
    if (value !== undefined && /^[0-9.]+$/.test(value)) setenv[key] = value;
  }
  if (await ctx.systemd.runTransient(`boothdeck-deploy-${name}`, argv, setenv, output)) return `unit boothdeck-deploy-${name}`;
  const env = { ...process.env };
  delete env.RUNNER_TRACKING_ID;
  const fd = openSync(output, 'a');
  try {
    const pid = spawnDetached(argv[0]!, argv.slice(1), env, fd);
    return pid === undefined ? undefined : `process ${pid}`;
  } finally {
    closeSync(fd);
  }
}
