import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/i;
/** Below this, the headers outweigh what compression saves. */
const MIN_BYTES = 512;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `file.br` and `file.gz` beside each text file of `dir` that compression makes smaller. */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; br: number; gzip: number }> {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = await fsp.readFile(file);
    if (data.length < MIN_BYTES) continue;
    const [b, g] = await Promise.all([
      brotli(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
      gz(data, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (b.length < data.length) await fsp.writeFile(`${file}.br`, b);
    if (g.length < data.length) await fsp.writeFile(`${file}.gz`, g);
    totals.files++;
    totals.bytes += data.length;
    totals.br += b.length;
    totals.gzip += g.length;
  }
  return totals;
}

/**
 * Compresses the built front ends once, at build time, with the slowest and best settings, so
 * that the server only picks a file by the browser's Accept-Encoding (server/http/static.ts).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'boothdeck-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const t = await precompressDir(outDir);
      const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
      this.info(`precompressed ${t.files} files: ${kb(t.bytes)} → brotli ${kb(t.br)}, gzip ${kb(t.gzip)}`);
    },
  };
}
