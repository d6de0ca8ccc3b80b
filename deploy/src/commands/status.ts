import { readdirSync } from 'node:fs';
import { livePort, type Ctx } from '../booth/context.js';
import { linkOf } from '../booth/files.js';
import { probeHealth } from '../booth/health-probe.js';
import { UNIT } from '../booth/paths.js';
import { describeProbe, describeUnit } from '../rules/unit-state.js';
import { readJournal } from '../switch/recover.js';

/** What runs, where the links point, and whether a switch waits to be finished. */
export async function statusMain(ctx: Ctx): Promise<number> {
  const port = livePort(ctx.paths);
  const [probe, unit] = await Promise.all([probeHealth(port), ctx.systemd.show(UNIT)]);
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out(`running:  ${probe.kind === 'answer' ? probe.status.version : `nothing (${describeProbe(probe, port)})`}`);
  out(`unit:     ${unit ? describeUnit(unit) : 'systemd could not be asked'}`);
  out(`current:  ${linkOf(ctx.paths.root, 'current') ?? ''}`);
  out(`previous: ${linkOf(ctx.paths.root, 'previous') ?? ''}`);
  const journal = readJournal(ctx);
  if (journal)
    out(
      `a switch (${journal.from ?? 'none'} -> ${journal.to}) stands at "${journal.step}": the recover watcher or boothdeck-deploy recover finishes it`,
    );
  try {
    for (const f of readdirSync(ctx.paths.releases).sort()) out(f);
  } catch {
    /* no release yet */
  }
  return 0;
}
