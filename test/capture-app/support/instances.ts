import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CaptureTarget } from './target.js';

/**
 * Stops every instance of the real app this run started and removes its data folder, whatever
 * became of the test file that started it (a failed hook, a timeout, a worker that died): run.sh
 * records each instance's data folder beside its pid file, and the folder carries the run's name.
 */
export function stopRunInstances(target: CaptureTarget, run: string): string[] {
  if (target.kind !== 'real' || !target.runSh) return [];
  const ours = `${target.dataPrefix}${run}-`;
  const runDir = path.join(target.home, 'run');
  const stopped: string[] = [];
  for (const file of existsSync(runDir) ? readdirSync(runDir) : []) {
    const port = /^(\d+)\.data$/.exec(file)?.[1];
    if (!port) continue;
    const dataDir = readFileSync(path.join(runDir, file), 'utf8').trim();
    if (!dataDir.startsWith(ours)) continue;
    spawnSync('bash', [target.runSh, 'stop'], { env: { ...process.env, PORT: port }, stdio: 'ignore', timeout: 60_000 });
    stopped.push(port);
  }
  const parent = path.dirname(ours);
  for (const name of existsSync(parent) ? readdirSync(parent) : []) {
    const dir = path.join(parent, name);
    if (dir.startsWith(ours)) rmSync(dir, { recursive: true, force: true });
  }
  return stopped;
}
