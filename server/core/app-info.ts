import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, found from this file both in the sources and in the build output. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'boothdeck') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Boothdeck package root');
    dir = parent;
  }
}

export function appVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

export const defaultRendererDir = (): string => path.join(projectRoot(), 'dist', 'renderer');

/**
 * The build's label (for example the commit), from `build-info.json` beside package.json,
 * which the packaging step writes; null in a development checkout.
 */
export function appBuild(): string | null {
  const file = path.join(projectRoot(), 'build-info.json');
  if (!existsSync(file)) return null;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { build?: unknown; commit?: unknown };
    const value = info.build ?? info.commit;
    return typeof value === 'string' && value.trim() ? value.trim() : null;
  } catch {
    return null;
  }
}
