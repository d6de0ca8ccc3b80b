import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FleetEventState } from '../../../server/contract/fleet.contract.js';
import { eventGuard } from '../booth/checks.js';
import { dataDir, livePort, type Ctx } from '../booth/context.js';
import { probeHealth } from '../booth/health-probe.js';
import { eventUnderWay } from '../rules/guard.js';
import { linkOf, writeAtomic } from '../booth/files.js';
import { fleetPublish, fleetReport, lastFleetEntry } from '../booth/fleet-report.js';
import { checkFirewall, checkPackages, installKit } from '../booth/kit.js';
import { trialDatabaseSource, planFor } from '../booth/database.js';
import { acquireLock, type HeldLock } from '../booth/lock.js';
import { EXIT } from '../booth/log.js';
import { markFailed, prune } from '../booth/release-store.js';
import { stopLeftoverTrial, trialStart } from '../booth/trial.js';
import { isToken, versionOf } from '../rules/names.js';
import { recoverInterrupted } from '../switch/recover.js';
import { Switch, type SwitchOutcome } from '../switch/switch.js';

interface RunResult extends SwitchOutcome {
  event?: FleetEventState;
}

/**
 * The detached run (`run ID install NAME VERSION FORCE`, `run ID rollback FORCE`, `run ID recover`),
 * under the deploy lock. First it finishes whatever an interrupted run left (a trial instance, a
 * switch); then it does what it was asked. Its result is said last, once the lock is released, so
 * that whoever follows finds the booth settled and free for the next deploy.
 */
export async function runMain(ctx: Ctx, args: string[], held?: HeldLock): Promise<number> {
  const [id, action, ...rest] = args;
  if (!id || !isToken(id)) return EXIT.usage;
  const { paths, log } = ctx;
  mkdirSync(paths.runs, { recursive: true });
  log.runId = id;
  log.runLog = path.join(paths.runs, `${id}.log`);
  writeAtomic(path.join(paths.runs, `${id}.pid`), `${process.pid}\n`);
  const lock = held ?? (await acquireLock(paths.lock, false));
  if (!lock) {
    log.note('REFUSED: another deploy is under way on this booth; this one changes nothing. Try again once it has finished.');
    return finish(ctx, id, { code: EXIT.busy, outcome: 'busy', detail: 'another deploy was under way' });
  }
  writeAtomic(paths.lockOwner, `${id}, since ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}\n`);
  let result: RunResult;
  try {
    await stopLeftoverTrial(ctx);
    const recovered = await recoverInterrupted(ctx);
    if (action === 'install' && rest.length === 3) result = await install(ctx, id, rest[0]!, rest[1]!, rest[2] === '1');
    else if (action === 'rollback') result = await rollback(ctx, rest[0] === '1');
    else if (action === 'recover') result = recovered ?? { code: 0, outcome: 'recovered', detail: 'nothing to recover' };
    else result = { code: EXIT.usage, outcome: 'failed', detail: `unknown action ${action ?? ''}` };
  } catch (err) {
    log.note(`FAILED: the deploy stopped unexpectedly: ${(err as Error).stack ?? String(err)}`);
    // The journal, if the switch had begun, says how to finish: it is finished now, not later.
    const settled = await recoverInterrupted(ctx).catch(() => undefined);
    result = {
      code: EXIT.unexpected,
      outcome: settled?.outcome ?? 'failed',
      detail: `the deploy stopped unexpectedly (${(err as Error).message})`,
    };
  } finally {
    rmSync(path.join(paths.incoming, id), { recursive: true, force: true });
    await lock.release();
  }
  return finish(ctx, id, result);
}

/** Whether guests are using the booth now, as far as what answers says (the guard's last word otherwise). */
async function eventNow(ctx: Ctx, fallback: FleetEventState | undefined): Promise<FleetEventState> {
  const probe = await probeHealth(livePort(ctx.paths));
  if (probe.kind !== 'answer') return fallback ?? lastFleetEntry(ctx)?.event ?? 'unknown';
  return eventUnderWay(probe.status, { quietMinutes: ctx.settings.quietMinutes, eventHours: ctx.settings.eventHours })
    ? 'under-way'
    : 'idle';
}

async function finish(ctx: Ctx, id: string, result: RunResult): Promise<number> {
  const event = await eventNow(ctx, result.event);
  fleetReport(ctx, result.outcome, event, result.detail);
  ctx.log.note(`RESULT ${result.code}`);
  writeAtomic(path.join(ctx.paths.runs, `${id}.result`), `${result.code}\n`);
  // Whoever followed has its result: the fleet page is updated after, and never holds it.
  await fleetPublish(ctx);
  return result.code;
}

const deferred = (ctx: Ctx, sentence: string, event: FleetEventState): RunResult => {
  ctx.log.note(sentence);
  return { code: EXIT.deferred, outcome: 'deferred', detail: sentence.replace(/^REFUSED: /, ''), event };
};

async function install(ctx: Ctx, id: string, name: string, version: string, force: boolean): Promise<RunResult> {
  const { paths, log } = ctx;
  const kit = path.join(paths.incoming, id);
  if (!isToken(name) || versionOf(name) !== version)
    return { code: EXIT.usage, outcome: 'failed', detail: `${name} is not the release of ${version}` };
  if (!existsSync(path.join(kit, name))) {
    log.note(`FAILED: nothing was received for ${name}`);
    return { code: EXIT.failed, outcome: 'failed', detail: `nothing was received for ${name}` };
  }
  await installKit(ctx, kit);
  mkdirSync(paths.releases, { recursive: true });
  chmodSync(path.join(kit, name), 0o755);
  renameSync(path.join(kit, name), path.join(paths.releases, name));
  log.note(`Stored releases/${name}`);
  const release = `releases/${name}`;
  // No second Boothdeck (the trial) while an event is under way: the guard comes first.
  let guard = await eventGuard(ctx, force);
  if (!guard.go)
    return deferred(ctx, `${guard.sentence} Nothing was started; ${release} stays on the booth until the event is over.`, guard.event);
  await checkPackages(ctx);
  await checkFirewall(ctx);
  if (!(await trialStart(ctx, release, version, dataDir(paths)))) {
    log.note(`FAILED: ${version} did not start beside the running Boothdeck, which was never stopped and keeps serving.`);
    markFailed(paths, release);
    prune(ctx);
    return {
      code: EXIT.failed,
      outcome: 'failed',
      detail: `${version} failed its trial start; the running release was never stopped`,
      event: guard.event,
    };
  }
  guard = await eventGuard(ctx, force);
  if (!guard.go)
    return deferred(ctx, `${guard.sentence} Nothing was restarted; ${release} stays on the booth until the event is over.`, guard.event);
  const from = linkOf(paths.root, 'current') ?? null;
  const outcome = await Switch.begin(ctx, {
    run: id,
    kind: 'install',
    from: from && versionOf(from) ? from : null,
    to: release,
    plan: 'live',
    step: 'prepared',
    force,
    begun: new Date().toISOString(),
  });
  return { ...outcome, event: guard.event };
}

async function rollback(ctx: Ctx, force: boolean): Promise<RunResult> {
  const { paths, log } = ctx;
  let guard = await eventGuard(ctx, force);
  if (!guard.go) return deferred(ctx, `${guard.sentence} Nothing was rolled back.`, guard.event);
  const target = linkOf(paths.root, 'previous');
  const version = target && versionOf(target);
  if (!target || !version || !existsSync(path.join(paths.root, target))) {
    log.note('FAILED: no previous release to roll back to');
    return { code: EXIT.failed, outcome: 'failed', detail: 'no previous release to roll back to', event: guard.event };
  }
  const from = linkOf(paths.root, 'current');
  log.note(`Rolling back from ${from ?? 'none'} to ${target}`);
  const plan = planFor(ctx, target);
  log.note(plan.sentence);
  if (!(await trialStart(ctx, target, version, trialDatabaseSource(ctx, target, plan.plan)))) {
    log.note(
      `FAILED: ${version} did not start beside the running Boothdeck (a database already moved on by the newer release?): nothing was changed.`,
    );
    return {
      code: EXIT.failed,
      outcome: 'failed',
      detail: `${version} failed its trial start: nothing was rolled back`,
      event: guard.event,
    };
  }
  guard = await eventGuard(ctx, force);
  if (!guard.go) return deferred(ctx, `${guard.sentence} Nothing was rolled back.`, guard.event);
  const outcome = await Switch.begin(ctx, {
    run: ctx.log.runId ?? 'rollback',
    kind: 'rollback',
    from: from && versionOf(from) ? from : null,
    to: target,
    plan: plan.plan,
    step: 'prepared',
    force,
    begun: new Date().toISOString(),
  });
  return { ...outcome, event: guard.event };
}
