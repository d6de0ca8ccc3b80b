import { readdirSync, readFileSync } from 'node:fs';

/** The export processes this test process has started and that still run. */
export function exportProcesses(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) =>
    readFileSync(`/proc/self/task/${tid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('export.worker');
        } catch {
          return false;
        }
      }),
  );
}
