import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { useRunTempRoot } from '../../support/temp-root.js';
import { stopRunInstances } from './instances.js';
import { resolveTarget, type CaptureTarget } from './target.js';

declare module 'vitest' {
  export interface ProvidedContext {
    captureTarget: CaptureTarget;
    /** This run's name: the real app's instances and data folders carry it. */
    captureRun: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function newest(target: string): number {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((name) => newest(path.join(target, name))));
}

/** The console is looked at in a browser: its build must be there and no older than its sources. */
function ensureRendererBuilt(): void {
  const built = newest(path.join(root, 'dist/renderer/admin/index.html'));
  const sources = Math.max(newest(path.join(root, 'renderer')), newest(path.join(root, 'vite.config.ts')));
  if (built >= sources) return;
  console.log('Building the console (its sources changed since the last build)…');
  const run = spawnSync('npm', ['run', 'build:renderer'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) throw new Error('The console could not be built');
}

export default function setup(project: TestProject): () => void {
  const target = resolveTarget();
  console.log(`Capture app under test: ${target.kind} — ${target.why}`);
  ensureRendererBuilt();
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  project.provide('captureTarget', target);
  project.provide('captureRun', run);
  const removeTempRoot = useRunTempRoot('capture-app');
  return () => {
    const left = stopRunInstances(target, run);
    if (left.length > 0) console.log(`Stopped the capture app left running on port ${left.join(', ')}`);
    removeTempRoot();
  };
}
