import type { CaptureAppPort, CaptureConnectionState } from '../capture/capture.port.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { RestartStatus } from '../contract/system.contract.js';
import type { Logger } from '../core/logger.js';
import type { SystemCommand, SystemPort } from './system.port.js';

export interface ScreenRefresh {
  command: SystemCommand;
  args: string[];
  env: Record<string, string>;
}

export interface CaptureRestartOptions {
  /** Changes arriving within this window share one restart. */
  debounceMs: number;
  /** How long the capture app may take to come back. */
  readyTimeoutMs: number;
  /** The capture app may answer a moment longer before it goes down: look this long for the gap. */
  downGraceMs: number;
  pollMs: number;
  /** The systemd user unit restarted when the capture app does not answer. */
  unit: string;
  /** Undefined: no screen to refresh (the simulator has none). */
  refresh: ScreenRefresh | undefined;
  /**
   * The host's own refresh, used instead of the command: the kiosk reloads the capture app's
   * view it hosts, which a key press sent to whichever window has focus could miss.
   */
  refreshScreen?: (() => Promise<void> | void) | undefined;
}

export const defaultRestartOptions: CaptureRestartOptions = {
  debounceMs: 1500,
  readyTimeoutMs: 60_000,
  downGraceMs: 10_000,
  pollMs: 500,
  unit: 'photobooth-app',
  refresh: { command: 'wtype', args: ['-k', 'F5'], env: { WAYLAND_DISPLAY: 'wayland-0' } },
};

type Listener = (status: RestartStatus) => void;

/** The live stream from the capture app: it breaks when the app goes down, a sure sign of a restart. */
export interface LinkWatch {
  onState(listener: (state: CaptureConnectionState) => void): () => void;
}

const idle = (): RestartStatus => ({
  state: 'idle',
  reasons: [],
  requested_at: null,
  finished_at: null,
  message: null,
  method: null,
  screen_refreshed: null,
});

/**
 * Applies configuration changes to the capture app, which reads its configuration only at
 * start: restart it (its own endpoint, else systemctl), wait until it answers again, then
 * refresh the booth's screen. Requests that arrive close together, or while a restart runs,
 * are merged into one more restart at most.
 */
export class CaptureRestartService {
  private current: RestartStatus = idle();
  private timer: TimerHandle | undefined;
  private pendingSince = 0;
  private stopped = false;
  private running: Promise<void> | undefined;
  private queuedReasons: string[] = [];
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly capture: CaptureAppPort,
    private readonly system: SystemPort,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: CaptureRestartOptions = defaultRestartOptions,
    private readonly link?: LinkWatch,
  ) {}

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

  request(reason: string): void {
    if (this.stopped) return;
    if (!this.queuedReasons.includes(reason)) this.queuedReasons.push(reason);
    if (this.running) return;
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
        requested_at: new Date(now).toISOString(),
        finished_at: null,
        message: null,
        method: null,
        screen_refreshed: null,
      });
    }
    this.timer = this.clock.setTimeout(() => this.start(), this.options.debounceMs);
  }

  /** Resolves once nothing is pending or running. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** At shutdown: drops what is pending and stops waiting on the capture app. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.queuedReasons = [];
    await this.settled();
  }

  private start(): void {
    this.timer = undefined;
    const reasons = this.queuedReasons;
    this.queuedReasons = [];
    this.running = this.run(reasons).finally(() => {
      this.running = undefined;
      if (this.queuedReasons.length > 0) {
        const next = this.queuedReasons;
        this.queuedReasons = [];
        next.forEach((r) => this.request(r));
      }
    });
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }

  /**
   * Waits for the capture app to go down (its stream breaks, or it stops answering), for at most
   * the grace period, then for it to answer again. Without the first wait a slow restart would
   * look finished while the old process still answers.
   */
  private async waitForReturn(dropped: () => boolean): Promise<boolean> {
    const graceUntil = this.clock.monotonic() + this.options.downGraceMs;
    let down = false;
    while (!this.stopped && !down && this.clock.monotonic() < graceUntil) {
      down = dropped() || !(await this.capture.isReachable());
      if (!down) await this.wait(this.options.pollMs);
    }
    if (!down) this.log.warn('The capture app did not seem to go down after the restart request');
    const deadline = this.clock.monotonic() + this.options.readyTimeoutMs;
    while (!this.stopped && this.clock.monotonic() < deadline) {
      if (await this.capture.isReachable()) return true;
      await this.wait(this.options.pollMs);
    }
    return false;
  }

  private async run(reasons: string[]): Promise<void> {
    this.set({ state: 'restarting', reasons });
    let linkDropped = false;
    const unwatch = this.link?.onState((state) => {
      if (state === 'disconnected') linkDropped = true;
    });
    try {
      await this.restartAndRefresh(() => linkDropped);
    } finally {
      unwatch?.();
    }
  }

  private async restartAndRefresh(dropped: () => boolean): Promise<void> {
    let method: 'api' | 'systemctl' = 'api';
    try {
      await this.capture.restart();
    } catch (err) {
      method = 'systemctl';
      this.log.warn(`Capture app restart endpoint failed (${err instanceof Error ? err.message : String(err)}); using systemctl`);
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
    }
    if (!(await this.waitForReturn(dropped))) {
      this.finish('failed', 'The capture app did not come back after its restart', method, null);
      return;
    }
    const refresh = this.options.refresh;
    const hook = this.options.refreshScreen;
    if (hook) {
      this.set({ state: 'refreshing', method });
      try {
        await hook();
      } catch (err) {
        this.finish('failed', `Screen refresh failed: ${err instanceof Error ? err.message : String(err)}`, method, false);
        return;
      }
      this.finish('done', null, method, true);
      return;
    }
    if (!refresh) {
      this.finish('done', 'No booth screen to refresh (simulated capture app)', method, null);
      return;
    }
    this.set({ state: 'refreshing', method });
    const result = await this.system.run(refresh.command, refresh.args, { env: refresh.env });
    if (result.code !== 0) {
      this.finish(
        'failed',
        `Screen refresh failed: ${result.stderr.trim() || `${refresh.command} exited with ${result.code}`}`,
        method,
        false,
      );
      return;
    }
    this.finish('done', null, method, true);
  }

  private finish(state: 'done' | 'failed', message: string | null, method: 'api' | 'systemctl', refreshed: boolean | null): void {
    if (state === 'failed') this.log.error(message ?? 'Capture app restart failed');
    else this.log.info(`Capture app restarted (${method})${refreshed ? ' and screen refreshed' : ''}`);
    this.set({ state, message, method, screen_refreshed: refreshed, finished_at: new Date(this.clock.now()).toISOString() });
  }
}
