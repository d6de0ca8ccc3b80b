import { renameSync, rmSync } from 'node:fs';
import { livePort, type Ctx } from '../booth/context.js';
import { pointLink, readSmall } from '../booth/files.js';
import { probeHealth } from '../booth/health-probe.js';
import { UNIT } from '../booth/paths.js';
import { sleep } from '../booth/process.js';
import { parseJournal, resumeDirection, type Journal, type Step } from '../rules/journal.js';
import { versionOf } from '../rules/names.js';
import { startStep } from '../rules/watch.js';
import { Switch, type SwitchOutcome } from './switch.js';

export const readJournal = (ctx: Ctx): Journal | undefined => {
  const text = readSmall(ctx.paths.journal);
  return text === undefined ? undefined : parseJournal(text);
};

/**
 * Finishes a switch the journal says was interrupted (a kill, a SIGTERM, a power cut): undone when
 * it stopped before the release leaving was stopped, otherwise carried on from its step (forward,
 * or back if it was already going back). `until`: stop before those steps (the boot starts the
 * unit itself). Undefined when there was nothing to finish.
 */
export async function recoverInterrupted(ctx: Ctx, until: readonly Step[] = []): Promise<SwitchOutcome | undefined> {
  const text = readSmall(ctx.paths.journal);
  if (text === undefined) return undefined;
  const journal = parseJournal(text);
  if (!journal) {
    ctx.log.note('WARNING: ~/boothdeck/deploy.state is not a deploy journal: set aside as deploy.state.unreadable');
    pointAside(ctx);
    return undefined;
  }
  const direction = resumeDirection(journal);
  ctx.log.note(`An earlier deploy stopped at "${journal.step}" (${journal.from ?? 'none'} -> ${journal.to}): finishing it (${direction})`);
  if (direction === 'undo') return undo(ctx, journal);
  const outcome = await new Switch(ctx, journal).run(until);
  return { ...outcome, detail: `after an interrupted deploy: ${outcome.detail}` };
}

function pointAside(ctx: Ctx): void {
  try {
    renameSync(ctx.paths.journal, `${ctx.paths.journal}.unreadable`);
  } catch {
    rmSync(ctx.paths.journal, { force: true });
  }
}

/**
 * Stopped before the release leaving was stopped: nothing changed but, maybe, the stop itself.
 * The release leaving runs again (started if it does not answer), and the journal goes.
 */
async function undo(ctx: Ctx, journal: Journal): Promise<SwitchOutcome> {
  const from = journal.from!;
  const fromVersion = versionOf(from) ?? from;
  const port = livePort(ctx.paths);
  const probe = await probeHealth(port);
  if (probe.kind === 'answer' && probe.status.version === fromVersion) {
    rmSync(ctx.paths.journal, { force: true });
    ctx.log.note(`RECOVERED: the switch never happened and ${fromVersion} still runs`);
    return { code: 0, outcome: 'recovered', detail: `a deploy of ${versionOf(journal.to)} was interrupted before the switch; ${fromVersion} still runs` };
  }
  pointLink(ctx.paths.root, 'current', from);
  const before = await ctx.systemd.show(UNIT);
  await ctx.systemd.start(UNIT);
  for (let i = 0; i < ctx.settings.healthAttempts && !ctx.signal.aborted; i++) {
    const [unit, health] = await Promise.all([ctx.systemd.show(UNIT), probeHealth(port)]);
    const verdict = startStep(before, unit, health, fromVersion);
    if (verdict.kind === 'answered') {
      rmSync(ctx.paths.journal, { force: true });
      ctx.log.note(`RECOVERED: ${fromVersion} started again and answers`);
      return { code: 0, outcome: 'recovered', detail: `a deploy of ${versionOf(journal.to)} was interrupted at the stop; ${fromVersion} runs again` };
    }
    if (verdict.kind === 'crashed') break;
    await sleep(ctx.settings.healthWaitMs, ctx.signal);
  }
  if (ctx.signal.aborted) return { code: 70, outcome: 'failed', detail: 'stopped while recovering; the watcher goes on' };
  rmSync(ctx.paths.journal, { force: true });
  ctx.log.note(`RECOVERED: current points to ${from} again, but it does not answer: look at journalctl --user -u boothdeck`);
  return { code: 1, outcome: 'crash-loop', detail: `${fromVersion} was started again but does not answer` };
}
