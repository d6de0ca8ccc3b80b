import type { Ctx } from '../booth/context.js';
import { detach } from '../booth/detach.js';

/**
 * The recover watcher, started before the switch stops anything: a process of its own (a
 * transient unit of the user's manager, else a session of its own) that waits for the deploy lock.
 * When the deploy ends, however it ends, the lock is free: the watcher takes it, and finishes or
 * undoes a switch the journal says was interrupted, within seconds of the kill.
 */
export async function startWatcher(ctx: Ctx, run: string): Promise<void> {
  const started = await detach(ctx, `watch-${run}`, ['recover', '--wait']);
  ctx.log.note(
    started
      ? 'Recover watcher started: should this deploy be stopped halfway, it finishes the switch'
      : 'WARNING: the recover watcher could not be started',
  );
}
