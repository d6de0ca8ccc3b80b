import { statfsSync } from 'node:fs';
import type { Clock } from '../core/clock/clock.port.js';

/** A refused write is remembered this long; freeing space clears the state once it passes. */
const REMEMBER_MS = 60_000;
/** Below this, the next write of a photo index row or thumbnail is likely to fail. */
const LOW_BYTES = 4 * 1024 * 1024;

/**
 * Whether the booth's storage is full, for the console: set when a write is refused for lack of
 * space, and read from the file system's free space.
 */
export class DiskState {
  private lastFullAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly dir: string | undefined,
  ) {}

  noteFull(): void {
    this.lastFullAt = this.clock.monotonic();
  }

  private freeBytes(): number | undefined {
    if (!this.dir) return undefined;
    try {
      const st = statfsSync(this.dir);
      return st.bavail * st.bsize;
    } catch {
      return undefined;
    }
  }

  isFull(): boolean {
    const free = this.freeBytes();
    if (free !== undefined && free < LOW_BYTES) return true;
    return this.lastFullAt !== undefined && this.clock.monotonic() - this.lastFullAt < REMEMBER_MS;
  }
}
