// Builds the deploy kit into dist/deploy/: the booth-side deploy program (deploy/src, TypeScript)
// bundled into one file for the board's own Node (Debian's, 18 on Raspberry Pi OS bookworm: no
// dependency, no newer syntax), beside its launcher and the units and template each deploy
// installs. scripts/deploy.sh sends this folder with a release; the pipeline ships it as an artifact.
//   node scripts/build-deploy.mjs [OUT]   (OUT: dist/deploy)
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(repo, 'dist/deploy'));
// Every file of deploy/ but the root side (installed by root from its own copy, never from a kit)
// and the program's sources: the launcher, the units, the template, and any other tool of the booth user's.
const ROOT_SIDE = ['boothdeck-system', 'boothdeck-fetch', 'sudoers.boothdeck-runner'];
const KIT = readdirSync(path.join(repo, 'deploy')).filter((f) => !ROOT_SIDE.includes(f) && statSync(path.join(repo, 'deploy', f)).isFile());

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'lib'), { recursive: true });
await build({
  entryPoints: [path.join(repo, 'deploy/src/main.ts')],
  outfile: path.join(out, 'lib/boothdeck-deploy.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const f of KIT) {
  copyFileSync(path.join(repo, 'deploy', f), path.join(out, f));
  chmodSync(path.join(out, f), statSync(path.join(repo, 'deploy', f)).mode & 0o777);
}
