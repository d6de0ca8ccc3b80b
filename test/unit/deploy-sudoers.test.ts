import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from '../support/fake-booth.js';

const file = path.join(repo, 'deploy/sudoers.boothdeck-runner');
const rules = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));
const visudo = ['/usr/sbin/visudo', '/sbin/visudo'].find((p) => existsSync(p));

describe("the runner's one way to the booth's user (deploy/sudoers.boothdeck-runner)", () => {
  it('allows exactly one command, the deploy tool with its fixed argument, as pi only, and never root', () => {
    const grants = rules.filter((line) => !line.startsWith('Defaults'));
    expect(grants).toEqual(['boothdeck-runner ALL=(pi) NOPASSWD: /home/pi/boothdeck/bin/boothdeck-deploy inbox']);
    for (const line of rules) {
      expect(line).not.toMatch(/\(ALL|\(root|[*?[\]]|NOPASSWD: ALL|SETENV|sudoedit/);
    }
    // The runner may not hand the tool variables of its own.
    expect(rules).toContain('Defaults:boothdeck-runner !setenv, env_reset, !requiretty');
  });

  it.skipIf(!visudo)('is a valid sudoers file (visudo -c)', () => {
    const result = spawnSync(visudo!, ['-cf', file], { encoding: 'utf8' });
    expect(result.stderr + result.stdout).toContain('parsed OK');
    expect(result.status).toBe(0);
  });
});
