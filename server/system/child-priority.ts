import os from 'node:os';

/** The lowest CPU priority, which needs no privilege to set on one's own child. */
const BACKGROUND_NICE = 19;

/**
 * Lowers a program just started to nice 19, on its pid only, right after the spawn: the threads
 * it starts afterwards inherit it. Quietly nothing where the system refuses (the program then
 * runs at the service's own priority, which the booth's unit already sets below the capture app's).
 */
export function lowerChild(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, BACKGROUND_NICE);
  } catch {
    /* refused or already gone: nothing to lower */
  }
}
