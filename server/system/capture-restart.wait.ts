import type { CaptureJobPhase } from '../contract/capture.contract.js';
import type { RestartWaitOutcome } from '../contract/system.contract.js';
import type { Clock } from '../core/clock/clock.port.js';

/** Whether a guest's job runs in the capture app (CaptureActivity, from its event stream). */
export interface ActivityWatch {
  readonly phase: CaptureJobPhase | null;
  onChange(listener: (phase: CaptureJobPhase | null) => void): () => void;
}

export type WaitEnd = RestartWaitOutcome | 'stopped';

export interface JobWait {
  /** Settles when the job ends (`job_done`), the bound runs out, or `end` is called. */
  done: Promise<WaitEnd>;
  end: (outcome: WaitEnd) => void;
}

/**
 * Waits for the guest's job under way to end, for at most `maxMs` on the clock's timers (a
 * fake clock drives it in tests). `onPhase` hears each step of the job meanwhile.
 */
export function waitForJob(activity: ActivityWatch, clock: Clock, maxMs: number, onPhase: (phase: CaptureJobPhase) => void): JobWait {
  let end: (outcome: WaitEnd) => void = () => undefined;
  const done = new Promise<WaitEnd>((resolve) => {
    let over = false;
    const off = activity.onChange((phase) => {
      if (phase === null) end('job_done');
      else onPhase(phase);
    });
    const timer = clock.setTimeout(() => end('timeout'), maxMs);
    end = (outcome) => {
      if (over) return;
      over = true;
      clock.clearTimeout(timer);
      off();
      resolve(outcome);
    };
  });
  return { done, end: (outcome) => end(outcome) };
}
