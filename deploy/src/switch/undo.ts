import { rmSync } from 'node:fs';
import type { FleetOutcome } from '../../../server/contract/fleet.contract.js';
import { livePort, type Ctx } from '../booth/context.js';
import { pointLink } from '../booth/files.js';
import { ALIVE_PROBE_MS, probeHealth } from '../booth/health-probe.js';
import { UNIT } from '../booth/paths.js';
import { sleep } from '../booth/process.js';
import { monotonicMs } from '../booth/systemd.js';
import type { Journal } from '../rules/journal.js';
import { versionOf } from '../rules/names.js';
import { startStep } from '../rules/watch.js';

/**
 * Stopped before the release leaving was stopped: nothing changed but, maybe, the stop itself.
 * The release leaving runs again (started if it does not answer), and the journal goes.
 */
export async function undo(ctx: Ctx, journal: Journal): Promise<{ code: number; outcome: FleetOutcome; detail: string }> {
  const from = journal.from;
  if (!from) {
    rmSync(ctx.paths.journal, { force: true });
    return { code: 1, outcome: 'failed', detail: 'a first install was stopped before it began' };
  }
  const fromVersion = versionOf(from) ?? from;
  const port = livePort(ctx.paths);
  const probe = await probeHealth(port, ALIVE_PROBE_MS);
  if (probe.kind === 'answer' && probe.status.version === fromVersion) {
    rmSync(ctx.paths.journal, { force: true });
    ctx.log.note(`RECOVERED: the switch never happened and ${fromVersion} still runs`);
    return {
      code: 0,
      outcome: 'recovered',
      detail: `a deploy of ${versionOf(journal.to)} was interrupted before the switch; ${fromVersion} still runs`,
    };
  }
  pointLink(ctx.paths.root, 'current', from);
  const before = await ctx.systemd.show(UNIT);
  await ctx.systemd.start(UNIT);
  // As the switch's own wait: the attempts or their time, whichever ends first (slow looks do not stretch it).
  const until = monotonicMs() + ctx.settings.healthAttempts * ctx.settings.healthWaitMs;
  for (let i = 0; i < ctx.settings.healthAttempts && !ctx.signal.aborted && (i === 0 || monotonicMs() < until); i++) {
    const [unit, health] = await Promise.all([ctx.systemd.show(UNIT), probeHealth(port, ALIVE_PROBE_MS)]);
    const verdict = startStep(before, unit, health, fromVersion);
    if (verdict.kind === 'answered') {
      rmSync(ctx.paths.journal, { force: true });
      ctx.log.note(`RECOVERED: ${fromVersion} started again and answers`);
      return {
        code: 0,
        outcome: 'recovered',
        detail: `a deploy of ${versionOf(journal.to)} was interrupted at the stop; ${fromVersion} runs again`,
      };
    }
    if (verdict.kind === 'crashed') break;
    await sleep(ctx.settings.healthWaitMs, ctx.signal);
  }
  if (ctx.signal.aborted) return { code: 70, outcome: 'failed', detail: 'stopped while recovering; the watcher goes on' };
  rmSync(ctx.paths.journal, { force: true });
  ctx.log.note(`RECOVERED: current points to ${from} again, but it does not answer: look at journalctl --user -u boothdeck`);
  return { code: 1, outcome: 'crash-loop', detail: `${fromVersion} was started again but does not answer` };
}
