// electron-builder's beforePack hook (electron-builder.yml): writes build-info.json beside
// package.json, packed into app.asar, where the service reads the build's label for the
// maintenance dashboard (server/core/app-info.ts appBuild()).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the build is: its version (package.json + commit), the commit, when and where it was built. */
export function buildInfo(env = process.env, now = new Date()) {
  const version = execFileSync('sh', [path.join(root, 'scripts/build-version.sh')], { encoding: 'utf8', env }).trim();
  let commit = env.GITHUB_SHA ?? '';
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      commit = 'unknown';
    }
  }
  const builtAt = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const run = env.GITHUB_RUN_ID ? `, run ${env.GITHUB_RUN_ID}` : '';
  return { version, commit, built_at: builtAt, build: `${version} (${builtAt}${run})` };
}

export default function beforePack() {
  writeFileSync(path.join(root, 'build-info.json'), `${JSON.stringify(buildInfo(), null, 2)}\n`);
}
