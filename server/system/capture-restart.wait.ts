import type { CaptureConnectionState } from '../capture/capture.port.js';
import type { CaptureJobPhase } from '../contract/capture.contract.js';
import type { RestartWaitOutcome } from '../contract/system.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';

/** Whether a guest's job runs in the capture app (CaptureActivity, from its event stream). */
export interface ActivityWatch {
  /** The job's phase, null when none runs; the last one known while the stream is broken. */
  readonly phase: CaptureJobPhase | null;
  onChange(listener: (phase: CaptureJobPhase | null) => void): () => void;
}

export type WaitEnd = RestartWaitOutcome | 'stopped';

export interface GuestJobWaitDeps {
  activity: ActivityWatch;
  clock: Clock;
  /** The live stream's state: while it is broken, the app's answers tell a crash from a dropped stream. */
  streamState: () => CaptureConnectionState | undefined;
  isReachable: () => Promise<boolean>;
  pollMs: number;
}

/**
 * Waits for the guests' jobs to end before a restart, within one bound on the clock's timers
 * (a fake clock drives it in tests): a guest who presses the button as the last photo ends is
 * waited for too, in what is left of it. A broken stream does not end the wait, the job may
 * go on: only the app's own word once the stream is back does, or the app no longer answering
 * (it is down, the job is lost and nothing is left to protect). `end` cuts the wait short.
 */
export class GuestJobWait {
  private endCurrent: ((outcome: WaitEnd) => void) | undefined;

  constructor(private readonly deps: GuestJobWaitDeps) {}

  /** True while a guest's job runs, as far as the app last told. */
  get jobRuns(): boolean {
    return this.deps.activity.phase !== null;
  }

  /** True while a wait is under way. */
  get waiting(): boolean {
    return this.endCurrent !== undefined;
  }

  /** Ends the wait under way, if any, with `outcome`. */
  end(outcome: WaitEnd): boolean {
    if (!this.endCurrent) return false;
    this.endCurrent(outcome);
    return true;
  }

  /**
   * Resolves once no job runs: null when none ran, else how the wait ended. `onPhase` hears
   * the phase at the start of the wait and at each step of the job meanwhile.
   */
  async untilIdle(maxMs: number, onPhase: (phase: CaptureJobPhase) => void): Promise<WaitEnd | null> {
    const { activity, clock } = this.deps;
    const deadline = clock.monotonic() + maxMs;
    let outcome: WaitEnd | null = null;
    while (activity.phase) {
      const left = deadline - clock.monotonic();
      if (left <= 0) return 'timeout';
      onPhase(activity.phase);
      const ended = await this.once(left, onPhase);
      // Down, the app has lost the job: its last phase, kept, would hold the wait for nothing.
      if (ended === 'app_down') return 'job_done';
      if (ended !== 'job_done') return ended;
      outcome = ended;
    }
    return outcome;
  }

  /** One job: settles when it ends (`job_done`), the bound runs out, the app is found down, or `end` is called. */
  private once(maxMs: number, onPhase: (phase: CaptureJobPhase) => void): Promise<WaitEnd | 'app_down'> {
    const { activity, clock, streamState, isReachable, pollMs } = this.deps;
    return new Promise<WaitEnd | 'app_down'>((resolve) => {
      let over = false;
      let poll: TimerHandle | undefined;
      const off = activity.onChange((phase) => {
        if (phase === null) finish('job_done');
        else onPhase(phase);
      });
      const bound = clock.setTimeout(() => finish('timeout'), maxMs);
      const check = (): void => {
        if (over) return;
        poll = clock.setTimeout(() => {
          poll = undefined;
          if (streamState() === 'connected') return check();
          void isReachable().then(
            (up) => (up ? check() : finish('app_down')),
            () => check(),
          );
        }, pollMs);
      };
      const finish = (outcome: WaitEnd | 'app_down'): void => {
        if (over) return;
        over = true;
        this.endCurrent = undefined;
        clock.clearTimeout(bound);
        if (poll) clock.clearTimeout(poll);
        off();
        resolve(outcome);
      };
      this.endCurrent = finish;
      check();
    });
  }
}
