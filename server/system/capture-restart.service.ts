import type { CaptureAppPort } from '../capture/capture.port.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { RestartStatus, RestartWaitOutcome } from '../contract/system.contract.js';
import type { Logger } from '../core/logger.js';
import type { SystemPort } from './system.port.js';
import { CaptureTimeoutError } from '../core/errors.js';
import { GuestJobWait, type ActivityWatch, type WaitEnd } from './capture-restart.wait.js';
import { defaultRestartOptions, refreshBoothScreen, type CaptureRestartOptions, type LinkWatch } from './capture-restart.options.js';

export { defaultRestartOptions };
export type { ActivityWatch, CaptureRestartOptions, LinkWatch };
export type { ScreenRefresh } from './capture-restart.options.js';

type Listener = (status: RestartStatus) => void;

const idle = (): RestartStatus => ({
  state: 'idle',
  reasons: [],
  requested_at: null,
  finished_at: null,
  message: null,
  method: null,
  screen_refreshed: null,
  typical_seconds: null,
  waiting: null,
  after_wait: null,
});

/** How many recent restarts the announced wait is measured from. */
const DURATIONS_KEPT = 5;

/**
 * Applies configuration changes to the capture app, which reads its configuration only at
 * start: restart it (its own endpoint, else systemctl), wait until it answers again, then
 * refresh the booth's screen. Requests that arrive close together, or while a restart runs,
 * are merged into one more restart at most. A restart never lands on a guest's job: while one
 * runs (countdown, capture, approval, processing) it waits for its end, at most `idleWaitMs`,
 * and requests made meanwhile join it; the operator may cut the wait short (`restartNow`).
 */
export class CaptureRestartService {
  private current: RestartStatus = idle();
  private timer: TimerHandle | undefined;
  private pendingSince = 0;
  private stopped = false;
  private running: Promise<void> | undefined;
  private queuedReasons: string[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly requestListeners = new Set<(reason: string) => void>();
  private runStartedAt = 0;
  private readonly durationsMs: number[] = [];
  /** The wait for a guest's job, when one runs (none without an activity to watch). */
  private readonly guestWait: GuestJobWait | undefined;
  /** The next restart goes ahead without waiting for the guest's job (the operator said so). */
  private skipWait = false;

  constructor(
    private readonly capture: CaptureAppPort,
    private readonly system: SystemPort,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: CaptureRestartOptions = defaultRestartOptions,
    private readonly link?: LinkWatch,
    activity?: ActivityWatch,
  ) {
    this.guestWait = activity
      ? new GuestJobWait({
          activity,
          clock,
          streamState: () => link?.state,
          isReachable: () => capture.isReachable(),
          pollMs: options.pollMs,
        })
      : undefined;
  }

  status(): RestartStatus {
    return { ...this.current, reasons: [...this.current.reasons] };
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(next: Partial<RestartStatus>): void {
    this.current = { ...this.current, ...next };
    const snapshot = this.status();
    this.listeners.forEach((l) => l(snapshot));
  }

  /** Hears each request, that is each change made to the capture app's configuration. */
  onRequest(listener: (reason: string) => void): () => void {
    this.requestListeners.add(listener);
    return () => this.requestListeners.delete(listener);
  }

  request(reason: string): void {
    if (this.stopped) return;
    this.requestListeners.forEach((l) => l(reason));
    if (!this.queuedReasons.includes(reason)) this.queuedReasons.push(reason);
    if (this.running) {
      // Changes made while the restart waits for a guest's job join that restart.
      if (this.guestWait?.waiting) this.set({ reasons: this.withQueued(this.current.reasons) });
      return;
    }
    const now = this.clock.monotonic();
    if (this.timer) {
      this.set({ reasons: [...this.queuedReasons] });
      // A steady stream of edits must not postpone the restart forever.
      if (now - this.pendingSince >= this.options.debounceMs * 5) return;
      this.clock.clearTimeout(this.timer);
    } else {
      this.pendingSince = now;
      this.set({
        state: 'pending',
        reasons: [...this.queuedReasons],
        requested_at: new Date(this.clock.now()).toISOString(),
        finished_at: null,
        message: null,
        method: null,
        screen_refreshed: null,
        waiting: null,
        after_wait: null,
      });
    }
    this.timer = this.clock.setTimeout(() => this.start(), this.options.debounceMs);
  }

  /**
   * The operator's "restart now": a restart pending or waiting for a guest's job goes ahead at
   * once (the job may be lost: the operator chose). Nothing to do otherwise.
   */
  restartNow(): RestartStatus {
    if (this.guestWait?.end('operator')) {
      // The restart starts on the next turn; the answer already says it is under way.
      this.set({ state: 'restarting', waiting: null, after_wait: 'operator' });
    } else if (this.timer && !this.running) {
      this.clock.clearTimeout(this.timer);
      this.skipWait = true;
      this.start();
    }
    return this.status();
  }

  /** `reasons`, then the queued ones not among them. */
  private withQueued(reasons: readonly string[]): string[] {
    return [...reasons, ...this.queuedReasons.filter((r) => !reasons.includes(r))];
  }

  /** Resolves once nothing is pending or running. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** At shutdown: drops what is pending and stops waiting on the capture app. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.guestWait?.end('stopped');
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.queuedReasons = [];
    await this.settled();
  }

  private start(): void {
    this.timer = undefined;
    this.running = this.cycle().finally(() => {
      this.running = undefined;
      if (this.queuedReasons.length > 0) {
        const next = this.queuedReasons;
        this.queuedReasons = [];
        next.forEach((r) => this.request(r));
      }
    });
  }

  /** Waits for the guest's job to end if one runs, then restarts with every reason gathered meanwhile. */
  private async cycle(): Promise<void> {
    // Without a job, the restart starts on this turn: nothing to wait for.
    const outcome = this.skipWait ? 'operator' : this.guestWait?.jobRuns ? await this.untilNoGuestJob() : null;
    this.skipWait = false;
    if (outcome === 'stopped') return;
    const reasons = this.queuedReasons;
    this.queuedReasons = [];
    await this.run(reasons, outcome);
  }

  /** Waits, at most `idleWaitMs`, for no guest's job to run, saying so while it waits. */
  private async untilNoGuestJob(): Promise<WaitEnd | null> {
    if (!this.guestWait) return null;
    const since = new Date(this.clock.now()).toISOString();
    const maxSeconds = Math.round(this.options.idleWaitMs / 1000);
    const outcome = await this.guestWait.untilIdle(this.options.idleWaitMs, (phase) => {
      const waiting = { since, max_seconds: maxSeconds, phase };
      if (this.current.state === 'waiting') return this.set({ waiting });
      this.log.info(`A guest's job runs in the capture app (${phase}): the restart waits for it, ${maxSeconds} s at most`);
      // Before the reload, the reasons of the restart under way are shown with the new ones.
      this.set({ state: 'waiting', reasons: this.withQueued(this.current.state === 'restarting' ? this.current.reasons : []), waiting });
    });
    if (outcome === 'timeout') this.log.warn('The guest’s job did not end in time: the capture app is restarted anyway');
    return outcome;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }

  /** Waits, for at most the grace period, for the capture app to go down (its stream breaks, or it stops answering). */
  private async wentDown(dropped: () => boolean): Promise<boolean> {
    const graceUntil = this.clock.monotonic() + this.options.downGraceMs;
    while (!this.stopped && this.clock.monotonic() < graceUntil) {
      if (dropped() || !(await this.capture.isReachable())) return true;
      await this.wait(this.options.pollMs);
    }
    return dropped();
  }

  /** Waits for the capture app to answer again. */
  private async cameBack(): Promise<boolean> {
    const deadline = this.clock.monotonic() + this.options.readyTimeoutMs;
    while (!this.stopped && this.clock.monotonic() < deadline) {
      if (await this.capture.isReachable()) return true;
      await this.wait(this.options.pollMs);
    }
    return false;
  }

  private async run(reasons: string[], afterWait: RestartWaitOutcome | null): Promise<void> {
    this.runStartedAt = this.clock.monotonic();
    this.set({ state: 'restarting', reasons, waiting: null, after_wait: afterWait });
    let linkDropped = false;
    const unwatch = this.link?.onState((state) => {
      if (state === 'disconnected') linkDropped = true;
    });
    try {
      // A stream still reconnecting (after the previous restart) could not show the next gap.
      const until = this.clock.monotonic() + this.options.downGraceMs;
      while (!this.stopped && this.link?.state !== undefined && this.link.state !== 'connected' && this.clock.monotonic() < until) {
        await this.wait(this.options.pollMs);
      }
      linkDropped = false;
      await this.restartAndRefresh(reasons, afterWait, () => linkDropped);
    } finally {
      unwatch?.();
    }
  }

  /**
   * Restart through the capture app's own endpoint, then make sure something happened: the
   * endpoint answers "OK" even when the app is not a systemd unit and restarts nothing. Without
   * the gap, Boothdeck reloads it in process (its triggers are read again) and says so. A call
   * that timed out may be restarting: the gap is awaited first, so the app never restarts twice.
   */
  private async restartAndRefresh(reasons: string[], afterWait: RestartWaitOutcome | null, dropped: () => boolean): Promise<void> {
    let method: 'api' | 'systemctl' | 'reload' = 'api';
    let warning: string | null = null;
    let fallback = false;
    try {
      await this.capture.restart();
    } catch (err) {
      if (!(err instanceof CaptureTimeoutError)) {
        this.log.warn(`Capture app restart endpoint failed (${err instanceof Error ? err.message : String(err)}); using systemctl`);
        fallback = true;
      }
    }
    if (!fallback && !(await this.wentDown(dropped))) {
      this.log.warn('The capture app did not go down after the restart request; reloading it in process');
      // A guest may have started a job while the app was watched for a restart that did not come.
      if (!(await this.beforeReload(reasons, afterWait))) return;
      try {
        await this.capture.reload();
        method = 'reload';
        warning =
          'The capture app did not restart (it is not run as a systemd service): it was reloaded instead. Check that the booth’s buttons start the right actions.';
      } catch (err) {
        this.log.warn(`Capture app reload failed (${err instanceof Error ? err.message : String(err)}); using systemctl`);
        fallback = true;
      }
    }
    if (fallback) {
      method = 'systemctl';
      const result = await this.system.run('systemctl', ['--user', 'restart', this.options.unit]);
      if (result.code !== 0) {
        this.finish(
          'failed',
          `Restart of the capture app failed: ${result.stderr.trim() || `systemctl exited with ${result.code}`}`,
          method,
          null,
        );
        return;
      }
      if (!(await this.wentDown(dropped))) this.log.warn('The capture app did not seem to go down after systemctl restart');
    }
    if (!(await this.cameBack())) {
      this.finish('failed', 'The capture app did not come back after its restart', method, null);
      return;
    }
    await this.refreshAndFinish(method, warning);
  }

  /**
   * Just before the in-process reload: waits again for a guest's job that started meanwhile
   * (unless the operator chose to go ahead), and takes in the changes made until now, which the
   * reload reads too, so that they do not ask for another restart. False at shutdown.
   */
  private async beforeReload(reasons: string[], afterWait: RestartWaitOutcome | null): Promise<boolean> {
    let outcome: WaitEnd | null = afterWait;
    if (afterWait !== 'operator') {
      const again = await this.untilNoGuestJob();
      if (again === 'stopped') return false;
      outcome = again ?? afterWait;
    }
    const all = this.withQueued(reasons);
    this.queuedReasons = [];
    this.set({ state: 'restarting', reasons: all, waiting: null, after_wait: outcome });
    return !this.stopped;
  }

  /**
   * A restart made outside this service (the dashboard's systemctl button): once the capture app
   * answers again, the booth's screen is refreshed as after any other restart, and the console's
   * restart banner follows it. Ignored while a restart of our own runs: that one refreshes too.
   */
  followExternalRestart(reason: string): void {
    if (this.stopped || this.running || this.timer) return;
    this.running = this.refreshWhenBack(reason).finally(() => {
      this.running = undefined;
    });
  }

  private async refreshWhenBack(reason: string): Promise<void> {
    this.runStartedAt = this.clock.monotonic();
    this.set({
      state: 'restarting',
      reasons: [reason],
      requested_at: new Date(this.clock.now()).toISOString(),
      finished_at: null,
      message: null,
      method: 'systemctl',
      screen_refreshed: null,
      waiting: null,
      after_wait: null,
    });
    if (!(await this.cameBack())) {
      this.finish('failed', 'The capture app did not come back after its restart', 'systemctl', null);
      return;
    }
    await this.refreshAndFinish('systemctl', null);
  }

  private async refreshAndFinish(method: 'api' | 'systemctl' | 'reload', warning: string | null): Promise<void> {
    if (this.options.refreshScreen || this.options.refresh) this.set({ state: 'refreshing', method });
    const { refreshed, error } = await refreshBoothScreen(this.options, this.system);
    if (error !== null) return this.finish('failed', `Screen refresh failed: ${error}`, method, false);
    const note = refreshed === null ? (warning ?? 'No booth screen to refresh (simulated capture app)') : warning;
    this.finish(warning ? 'warning' : 'done', note, method, refreshed);
  }

  private finish(
    state: 'done' | 'warning' | 'failed',
    message: string | null,
    method: 'api' | 'systemctl' | 'reload',
    refreshed: boolean | null,
  ): void {
    if (state === 'failed') this.log.error(message ?? 'Capture app restart failed');
    else if (state === 'warning') this.log.warn(message ?? 'Capture app reloaded instead of restarted');
    else this.log.info(`Capture app restarted (${method})${refreshed ? ' and screen refreshed' : ''}`);
    if (state === 'done') {
      this.durationsMs.push(this.clock.monotonic() - this.runStartedAt);
      if (this.durationsMs.length > DURATIONS_KEPT) this.durationsMs.shift();
    }
    const typical = this.durationsMs.length > 0 ? Math.max(1, Math.ceil(Math.max(...this.durationsMs) / 1000)) : null;
    this.set({
      state,
      message,
      method,
      screen_refreshed: refreshed,
      finished_at: new Date(this.clock.now()).toISOString(),
      typical_seconds: typical,
    });
  }
}
