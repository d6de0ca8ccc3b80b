import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Gives one test run a temporary root of its own and removes it at the end, so that every folder
 * a test, a service under test or the browser makes with os.tmpdir() goes with it. Worker
 * processes inherit TMPDIR from the runner, which sets it here before starting them.
 */
export function useRunTempRoot(runner: string): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), `boothdeck-${runner}-run-`));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
