// `npm start`: builds only when a source is newer than the build, then runs the headless service
// in this process (its own signal handling applies). A second start with nothing changed takes
// the service's start time alone instead of a full Vite and tsc build.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['server', 'common', 'native', 'main', 'renderer', 'package.json', 'package-lock.json', 'vite.config.ts'];
const OUTPUTS = ['dist/node/server/index.js', 'dist/renderer/admin/index.html', 'dist/renderer/gallery/index.html'];

/** The newest modification time under a file or folder (0 when absent). */
function newest(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const name of readdirSync(target)) max = Math.max(max, newest(path.join(target, name)));
  return max;
}

/** The oldest of the build's outputs, or 0 when one is missing. */
function oldestOutput() {
  let min = Infinity;
  for (const file of OUTPUTS) {
    try {
      min = Math.min(min, statSync(path.join(root, file)).mtimeMs);
    } catch {
      return 0;
    }
  }
  return min;
}

const sourceTime = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
if (oldestOutput() < sourceTime) {
  console.log('Building Boothdeck (sources changed since the last build)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else {
  console.log('Build up to date.');
}
await import(pathToFileURL(path.join(root, 'dist/node/server/index.js')).href);
