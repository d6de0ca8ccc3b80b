// Builds the deploy kit into dist/deploy/: the booth-side deploy program (deploy/src, TypeScript)
// bundled into one file for the board's own Node (Debian's, 18 on Raspberry Pi OS bookworm: no
// dependency, no newer syntax), beside its launcher and the units and template each deploy
// installs. scripts/deploy.sh sends this folder with a release; the pipeline ships it as an artifact.
//   node scripts/build-deploy.mjs [OUT]   (OUT: dist/deploy)
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(repo, 'dist/deploy'));
const KIT = [
  'boothdeck-deploy',
  'boothdeck.service',
  'boothdeck-pull.service',
  'boothdeck-pull.timer',
  'boothdeck-recover.service',
  'boothdeck.env.example',
];

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
for (const f of KIT) copyFileSync(path.join(repo, 'deploy', f), path.join(out, f));
chmodSync(path.join(out, 'boothdeck-deploy'), 0o755);
