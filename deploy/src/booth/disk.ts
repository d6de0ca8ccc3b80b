import { statSync } from 'node:fs';
import path from 'node:path';
import { DB_FILES } from './paths.js';
import { runCommand } from './process.js';

/** Bytes free where FOLDER is (df's available column); undefined when df cannot tell. */
export async function freeBytes(folder: string): Promise<number | undefined> {
  const { code, stdout } = await runCommand('df', ['-Pk', folder], { timeoutMs: 15_000 });
  if (code !== 0) return undefined;
  const fields = stdout.split('\n')[1]?.trim().split(/\s+/);
  const kb = Number(fields?.[3]);
  return Number.isFinite(kb) ? kb * 1024 : undefined;
}

/** The size of the database and the files beside it in a data folder (0 when there is none). */
export function databaseBytes(dataDir: string): number {
  let total = 0;
  for (const f of DB_FILES) {
    try {
      total += statSync(path.join(dataDir, f)).size;
    } catch {
      /* not there */
    }
  }
  return total;
}
