import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { FleetOutcome } from '../../../server/contract/fleet.contract.js';
import { livePort, type Ctx } from '../booth/context.js';
import { closeCopies, moveLiveAside, planFor, prepareRestore, snapshotDatabase, swapIn } from '../booth/database.js';
import { writeAtomic } from '../booth/files.js';
import { pointLink } from '../booth/files.js';
import { fleetPublish, fleetReport } from '../booth/fleet-report.js';
import { ALIVE_PROBE_MS, probeHealth } from '../booth/health-probe.js';
import { UNIT } from '../booth/paths.js';
import { sleep } from '../booth/process.js';
import { markFailed, markHealthy, markHeld, prune } from '../booth/release-store.js';
import { bootId, monotonicMs } from '../booth/systemd.js';
import { isBackStep, whenStepFails, type Journal, type Step } from '../rules/journal.js';
import { versionOf } from '../rules/names.js';
import { describeUnit, unitRuns, type UnitState } from '../rules/unit-state.js';
import { startStep, watchStep, type WatchState } from '../rules/watch.js';
import { startWatcher } from './watcher.js';
import { undo } from './undo.js';

/** How a switch ended (or stopped: the journal then stays for the recover watcher). */
export interface SwitchOutcome {
  code: number;
  outcome: FleetOutcome;
  detail: string;
}

/** Steps at which the booth runs a release: a switch told to stop (SIGTERM) leaves the rest to the watcher there. */
const RUNNING: readonly Step[] = ['starting', 'watching', 'back-starting'];

/**
 * Runs a program at each step, its name and this process's id as arguments, before the step is
 * done (BOOTHDECK_DEPLOY_STEP_HOOK: the fake board's tests kill or stop the deploy there).
 */
function stepHook(step: Step): boolean {
  const hook = process.env.BOOTHDECK_DEPLOY_STEP_HOOK;
  if (!hook) return false;
  try {
    execFileSync(hook, [step, String(process.pid)], { stdio: 'ignore', timeout: 30_000 });
  } catch {
    /* the hook's own business */
  }
  return true;
}

type WaitResult = { kind: 'answered'; unit: UnitState | undefined } | { kind: 'failed'; why: string } | { kind: 'aborted' };

/**
 * The journalled switch from `journal.from` to `journal.to` (rules/journal.ts), run from whatever
 * step the journal holds: a new switch starts at `prepared`; an interrupted one goes on from where
 * it was. Each step is written to the journal before it is done, and each can be done again.
 */
export class Switch {
  private journal: Journal;

  constructor(
    private readonly ctx: Ctx,
    journal: Journal,
  ) {
    this.journal = journal;
  }

  private save(step: Step, extra: Partial<Journal> = {}): void {
    this.journal = { ...this.journal, ...extra, step };
    writeAtomic(this.ctx.paths.journal, `${JSON.stringify(this.journal)}\n`);
  }

  private get toVersion(): string {
    return versionOf(this.journal.to) ?? this.journal.to;
  }

  private get fromVersion(): string {
    return (this.journal.from && versionOf(this.journal.from)) ?? 'none';
  }

  /**
   * A new switch: the recover watcher first (should this process die from here on, it finishes
   * what the journal says), then the journal, then the steps.
   */
  static async begin(ctx: Ctx, journal: Journal): Promise<SwitchOutcome> {
    await startWatcher(ctx, journal.run);
    const run = new Switch(ctx, journal);
    run.save('prepared');
    return run.run();
  }

  /** Runs the switch to its end; `until`: stops before those steps (the journal stays). */
  async run(until: readonly Step[] = []): Promise<SwitchOutcome> {
    for (;;) {
      const { step } = this.journal;
      if (until.includes(step)) return { code: 0, outcome: 'watching', detail: `the switch stands at "${step}"` };
      if (this.ctx.signal.aborted) {
        const stopped = await this.whenStopped(step);
        if (stopped) return stopped;
      }
      if (stepHook(step)) {
        // A signal sent by the hook is handled on the event loop's next turn: take it before the step.
        await new Promise((resolve) => setImmediate(resolve));
        const stopped = this.ctx.signal.aborted ? await this.whenStopped(step) : undefined;
        if (stopped) return stopped;
      }
      let done: SwitchOutcome | undefined;
      try {
        done = await this.step(step);
      } catch (err) {
        done = this.stepFailed(step, err);
      }
      if (done) return done;
    }
  }

  /**
   * A step threw (rules/journal.ts, whenStepFails): with Boothdeck stopped, the switch goes back
   * to the release that ran rather than leave the booth dark; the new release is not blamed.
   */
  private stepFailed(step: Step, err: unknown): SwitchOutcome | undefined {
    const what = whenStepFails({ ...this.journal, step });
    if (what === 'rethrow') throw err;
    const why = `the deploy could not go on at "${step}" (${err instanceof Error ? err.message : String(err)})`;
    this.ctx.log.note(`FAILED: ${why}`);
    if (what === 'give-up') return this.dropJournal('failed', `${this.toVersion} was not installed: ${why}`);
    this.journal = { ...this.journal, step: 'back-stopping', failure: why, notStarted: true };
    try {
      this.save('back-stopping');
    } catch {
      // The journal cannot be written either (a full disk): going back goes on from memory.
      this.ctx.log.note('WARNING: the journal could not be written; going back all the same');
    }
    return undefined;
  }

  /**
   * Told to stop (SIGTERM) before STEP: nothing stopped yet is left as it is; past the stop, the
   * booth is brought to a running release first, and the watcher finishes the rest. Undefined: go on.
   */
  private async whenStopped(step: Step): Promise<SwitchOutcome | undefined> {
    if (step === 'prepared' || step === 'stopping') {
      const undone = await undo(this.ctx, this.journal);
      return {
        code: 70,
        outcome: undone.outcome === 'recovered' ? 'failed' : undone.outcome,
        detail: `stopped before the switch: ${undone.detail}`,
      };
    }
    if (RUNNING.includes(step)) {
      this.ctx.log.note(`Stopped (SIGTERM) at "${step}": a release runs; the recover watcher finishes the switch`);
      return {
        code: 70,
        outcome: isBackStep(step) ? 'rolled-back' : 'watching',
        detail: 'the deploy was stopped; the booth finishes the switch by itself',
      };
    }
    return undefined;
  }

  private dropJournal(outcome: FleetOutcome, detail: string, code = 1): SwitchOutcome {
    rmSync(this.ctx.paths.journal, { force: true });
    return { code, outcome, detail };
  }

  private async step(step: Step): Promise<SwitchOutcome | undefined> {
    const { ctx } = this;
    const { log, systemd, paths } = ctx;
    const j = this.journal;
    switch (step) {
      case 'prepared':
        this.save('stopping');
        return;
      case 'stopping':
        if (j.from) log.note(`Stopping Boothdeck ${this.fromVersion} for the database snapshot`);
        if (!(await systemd.stop(UNIT))) {
          const unit = await systemd.show(UNIT);
          // Still running, or systemd cannot say: a snapshot now would copy a database being
          // written, and the new release could not take the port. Nothing was changed yet.
          if (!unit || unitRuns(unit)) return this.stopFailed(unit);
          log.note(`systemctl --user stop ${UNIT} failed, but the unit is stopped (${describeUnit(unit)}): going on`);
        }
        this.save('stopped');
        return;
      case 'stopped':
        closeCopies(ctx);
        if (j.from) snapshotDatabase(ctx, j.from);
        this.save('snapshotted');
        return;
      case 'snapshotted':
        if (j.plan === 'snapshot') {
          prepareRestore(ctx, j.to, j.run);
          this.save('restore-ready');
        } else this.save('restored');
        return;
      case 'restore-ready':
        moveLiveAside(ctx, j.run);
        this.save('restore-swap');
        return;
      case 'restore-swap':
        swapIn(ctx, j.to, j.run);
        this.save('restored');
        return;
      case 'restored':
        pointLink(paths.root, 'current', j.to);
        log.note(`current -> ${j.to} (was ${j.from ?? 'none'})`);
        this.save('switched');
        return;
      case 'switched':
        return this.startUnit('starting');
      case 'starting': {
        const answer = await this.waitAnswer(this.toVersion, j.baseline);
        if (answer.kind === 'aborted') return;
        if (answer.kind === 'failed') return this.goBack(answer.why);
        log.note(`Boothdeck ${this.toVersion} answers /healthz; watching it for ${ctx.settings.watchSeconds} s`);
        this.save('watching', { answeredAt: monotonicMs(), bootId: bootId(), baseline: answer.unit ?? j.baseline });
        fleetReport(ctx, 'watching', 'idle', `${this.toVersion} answers; watched until ${ctx.settings.watchSeconds} s after the switch`);
        // On the remote too, while the watch goes on (the run's end waits for it).
        void fleetPublish(ctx);
        return;
      }
      case 'watching': {
        const watched = await this.watch();
        if (watched === 'aborted') return;
        if (watched !== 'passed') return this.goBack(watched.why);
        this.save('committing');
        return;
      }
      case 'committing':
        return this.commit();
      case 'back-stopping':
        log.note(`Rolling back to ${this.fromVersion}`);
        if (!(await systemd.stop(UNIT))) log.note(`systemctl --user stop ${UNIT} failed`);
        this.save('back-stopped');
        return;
      case 'back-stopped': {
        const plan = planFor(ctx, j.from!);
        log.note(plan.sentence);
        if (plan.plan === 'snapshot') {
          prepareRestore(ctx, j.from!, `${j.run}-back`);
          this.save('back-restore-ready', { backPlan: 'snapshot' });
        } else this.save('back-restored', { backPlan: 'live' });
        return;
      }
      case 'back-restore-ready':
        moveLiveAside(ctx, `${j.run}-back`);
        this.save('back-restore-swap');
        return;
      case 'back-restore-swap':
        swapIn(ctx, j.from!, `${j.run}-back`);
        this.save('back-restored');
        return;
      case 'back-restored':
        pointLink(paths.root, 'current', j.from!);
        log.note(`current -> ${j.from} (back from ${j.to})`);
        this.save('back-switched');
        return;
      case 'back-switched':
        return this.startUnit('back-starting');
      case 'back-starting': {
        const answer = await this.waitAnswer(this.fromVersion, j.baseline);
        if (answer.kind === 'aborted') return;
        prune(ctx);
        if (answer.kind === 'answered' && j.notStarted) {
          log.note(`${j.from} answers /healthz again; ${j.to} was never started`);
          return this.dropJournal(
            'failed',
            `${this.toVersion} was not installed: ${j.failure ?? 'the deploy failed'}; ${this.fromVersion} runs again`,
          );
        }
        if (answer.kind === 'answered') {
          log.note(`ROLLED BACK to ${j.from}, which answers /healthz again`);
          return this.dropJournal(
            'rolled-back',
            `${this.toVersion} failed (${j.failure ?? 'after the switch'}); ${this.fromVersion} runs again`,
          );
        }
        log.note(`ROLLED BACK to ${j.from}, but it does not answer either (${answer.why}): look at journalctl --user -u boothdeck`);
        return this.dropJournal(
          'crash-loop',
          `${this.toVersion} failed (${j.failure ?? 'after the switch'}), and ${this.fromVersion} does not answer either`,
        );
      }
    }
  }

  private async startUnit(next: 'starting' | 'back-starting'): Promise<undefined> {
    const before = await this.ctx.systemd.show(UNIT);
    const version = next === 'starting' ? this.toVersion : this.fromVersion;
    this.ctx.log.note(`Starting Boothdeck ${version}`);
    if (!(await this.ctx.systemd.start(UNIT))) this.ctx.log.note(`systemctl --user start ${UNIT} failed`);
    this.save(next, before ? { baseline: before } : {});
    return undefined;
  }

  /**
   * After the start: the release answers with its version, or the unit says it died, or the wait
   * runs out (the attempts, or their time, whichever first: slow looks do not stretch it).
   */
  private async waitAnswer(version: string, baseline: UnitState | undefined): Promise<WaitResult> {
    const { settings, systemd, signal } = this.ctx;
    const port = livePort(this.ctx.paths);
    const until = monotonicMs() + settings.healthAttempts * settings.healthWaitMs;
    for (let i = 0; i < settings.healthAttempts && (i === 0 || monotonicMs() < until); i++) {
      if (signal.aborted) return { kind: 'aborted' };
      const [unit, health] = await Promise.all([systemd.show(UNIT), probeHealth(port, ALIVE_PROBE_MS)]);
      const verdict = startStep(baseline, unit, health, version);
      if (verdict.kind === 'answered') return { kind: 'answered', unit };
      if (verdict.kind === 'crashed') {
        this.ctx.log.note(`Crash loop: ${verdict.why}`);
        return { kind: 'failed', why: verdict.why };
      }
      await sleep(settings.healthWaitMs, signal);
    }
    return { kind: 'failed', why: `Boothdeck did not report version ${version} on /healthz after the restart` };
  }

  /** The watch window: the release stays up, or the first failure rolls it back. */
  private async watch(): Promise<'passed' | 'aborted' | { why: string }> {
    const { settings, systemd, signal, log } = this.ctx;
    const j = this.journal;
    const port = livePort(this.ctx.paths);
    const now = monotonicMs();
    const sameBoot = j.answeredAt !== undefined && j.bootId === bootId();
    let state: WatchState = {
      startedAt: sameBoot ? j.answeredAt! : now,
      baseline: j.baseline ?? (await systemd.show(UNIT)) ?? { active: 'active', sub: 'running', restarts: 0, mainPid: 0 },
      failuresInRow: 0,
    };
    const policy = { windowMs: settings.watchSeconds * 1000, healthFailures: 3 };
    for (;;) {
      if (signal.aborted) return 'aborted';
      const [unit, health] = await Promise.all([systemd.show(UNIT), probeHealth(port, ALIVE_PROBE_MS)]);
      const result = watchStep(state, { at: monotonicMs(), unit, health, port }, this.toVersion, policy);
      state = result.state;
      if (result.verdict.kind === 'passed') {
        log.note(`Boothdeck ${this.toVersion} stayed up for the watch window (${settings.watchSeconds} s)`);
        return 'passed';
      }
      if (result.verdict.kind === 'failed') {
        log.note(`FAILED during the watch window: ${result.verdict.why}`);
        return { why: result.verdict.why };
      }
      const left = state.startedAt + policy.windowMs - monotonicMs();
      await sleep(Math.max(50, Math.min(settings.healthWaitMs, left)), signal);
    }
  }

  /** Boothdeck could not be stopped: the switch is undone (the release leaving runs on), and the new release is not blamed. */
  private async stopFailed(unit: UnitState | undefined): Promise<SwitchOutcome> {
    const state = unit ? `the unit is ${describeUnit(unit)}` : 'systemd does not answer';
    this.ctx.log.note(`FAILED: systemctl --user stop ${UNIT} failed and ${state}: nothing is switched`);
    const undone = await undo(this.ctx, this.journal);
    return {
      code: 1,
      outcome: 'failed',
      detail: `${this.toVersion} was not installed: Boothdeck could not be stopped for the switch (${state}); ${undone.detail}`,
    };
  }

  /** A failure after the stop: the release is marked failed, and the switch goes back to the one before. */
  private goBack(why: string): SwitchOutcome | undefined {
    const j = this.journal;
    markFailed(this.ctx.paths, j.to);
    if (!j.from || j.from === j.to) {
      this.ctx.log.note(`FAILED: ${why}. No other release to go back to: look at journalctl --user -u boothdeck`);
      prune(this.ctx);
      return this.dropJournal('failed', `${this.toVersion} failed (${why}) and there is no other release to go back to`);
    }
    this.save('back-stopping', { failure: why });
    return undefined;
  }

  private commit(): SwitchOutcome {
    const { ctx } = this;
    const j = this.journal;
    if (j.from && j.from !== j.to) pointLink(ctx.paths.root, 'previous', j.from);
    markHealthy(ctx.paths, j.to);
    if (j.kind === 'rollback' && j.from && j.from !== j.to) {
      markHeld(ctx.paths, j.from);
      ctx.log.note(`The pull will not install ${this.fromVersion} again, only a newer release (boothdeck-rollback again goes forward)`);
    }
    rmSync(ctx.paths.journal, { force: true });
    prune(ctx);
    ctx.log.note(`Boothdeck ${this.toVersion} is up and answers /healthz (previous: ${j.from ?? 'none'})`);
    return j.kind === 'rollback'
      ? { code: 0, outcome: 'rolled-back', detail: `rolled back on request from ${this.fromVersion}` }
      : { code: 0, outcome: 'installed', detail: `installed; stayed up for the ${ctx.settings.watchSeconds} s watch window` };
  }
}
