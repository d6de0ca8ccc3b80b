import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MALLOC_ARENAS, V8_MEMORY_FLAGS } from '../../server/core/host-memory.js';

const repo = path.resolve(import.meta.dirname, '../..');

/** What a host's start line gives Node: its V8 options and MALLOC_ARENA_MAX, as the process sees them. */
function started(command: string, env: NodeJS.ProcessEnv): { execArgv: string[]; arenas: string | undefined } {
  const probe = `${command.replace('scripts/start.mjs', '-e')} "console.log(JSON.stringify({ execArgv: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX }))"`;
  const run = spawnSync('sh', ['-c', probe], { cwd: repo, env, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { execArgv: string[]; arenas: string | undefined };
}

describe("the booth's hosts start Boothdeck with the memory settings of a 2 GB Pi", () => {
  it('the systemd unit sets two malloc arenas for the kiosk and everything it starts', () => {
    const unit = readFileSync(path.join(repo, 'deploy/boothdeck.service'), 'utf8').split('\n');
    expect(unit).toContain(`Environment=MALLOC_ARENA_MAX=${MALLOC_ARENAS}`);
  });

  it("the unit's start line gives the kiosk's own V8, where the service runs, the young generation of a Pi", () => {
    const start = readFileSync(path.join(repo, 'deploy/boothdeck.service'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('ExecStart='));
    expect(start?.split(/\s+/)).toContain(`--js-flags=${V8_MEMORY_FLAGS.join(' ')}`);
  });

  it('npm start runs the headless service with both, and an arena count set by hand wins', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts;
    const { MALLOC_ARENA_MAX: _unset, ...env } = process.env;
    const plain = started(scripts.start, env);
    expect(plain.execArgv).toEqual(expect.arrayContaining([...V8_MEMORY_FLAGS]));
    expect(plain.arenas).toBe(MALLOC_ARENAS);
    expect(started(scripts.start, { ...env, MALLOC_ARENA_MAX: '4' }).arenas).toBe('4');
  });
});
