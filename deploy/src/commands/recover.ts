import type { Ctx } from '../booth/context.js';
import { detach } from '../booth/detach.js';
import { acquireLock } from '../booth/lock.js';
import { EXIT } from '../booth/log.js';
import { needsFilesBeforeStart } from '../rules/journal.js';
import { newRunId } from '../rules/names.js';
import { readJournal, recoverInterrupted } from '../switch/recover.js';
import { startMain } from './follow.js';
import { runMain } from './run.js';

/**
 * `recover`: finishes an interrupted switch now (by hand), following it.
 * `recover --wait`: the watcher a switch starts before it stops anything: waits for the deploy
 *   lock (free once the deploy ends, however it ends), then finishes what the journal says.
 * `recover --boot`: boothdeck-recover.service, before Boothdeck starts at boot: puts the files
 *   of an interrupted switch in place (a database half put back, the links), then leaves the rest
 *   to a watcher, once the unit runs.
 */
export async function recoverMain(ctx: Ctx, args: string[]): Promise<number> {
  const id = newRunId('recover', new Date(), process.pid);
  if (args[0] === '--wait') {
    const lock = await acquireLock(ctx.paths.lock, true, ctx.signal);
    if (!lock) return EXIT.unexpected;
    if (!readJournal(ctx)) {
      await lock.release();
      return EXIT.done;
    }
    return runMain(ctx, [id, 'recover'], lock);
  }
  if (args[0] === '--boot') {
    const lock = await acquireLock(ctx.paths.lock, false);
    if (!lock) return EXIT.done;
    try {
      const journal = readJournal(ctx);
      if (!journal) return EXIT.done;
      ctx.log.runId = id;
      if (
        needsFilesBeforeStart(journal) ||
        ['stopped', 'snapshotted', 'restored', 'back-stopped', 'back-restored'].includes(journal.step)
      ) {
        await recoverInterrupted(ctx, ['switched', 'back-switched']);
      }
    } finally {
      await lock.release();
    }
    await detach(ctx, `watch-${id}`, ['recover', '--wait']);
    return EXIT.done;
  }
  return startMain(ctx, [id, 'recover']);
}
