import type { Ctx } from '../booth/context.js';
import { dataDir } from '../booth/context.js';
import { EXIT } from '../booth/log.js';
import { trialStart } from '../booth/trial.js';
import { versionOf } from '../rules/names.js';

/**
 * `trial releases/NAME VERSION`: the deploy's trial start alone (scripts/smoke-trial.sh runs it on
 * each build: the very code a booth runs before it stops the release it runs).
 */
export async function trialMain(ctx: Ctx, args: string[]): Promise<number> {
  const [release, version] = args;
  if (!release || !version || versionOf(release) !== version) return EXIT.usage;
  ctx.log.runId = 'smoke';
  return (await trialStart(ctx, release, version, dataDir(ctx.paths))) ? EXIT.done : EXIT.failed;
}
