import { renameSync, rmSync } from 'node:fs';
import type { Ctx } from '../booth/context.js';
import { readSmall } from '../booth/files.js';
import { parseJournal, resumeDirection, type Journal, type Step } from '../rules/journal.js';
import { Switch, type SwitchOutcome } from './switch.js';
import { undo } from './undo.js';

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
