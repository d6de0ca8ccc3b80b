export type TimerHandle = { readonly id: number };

/** Time as a port, so that rate limits, idle expiry and timers can be driven by tests. */
export interface Clock {
  /** Wall-clock time (ms since 1970): for dates people read and store. It may jump either way. */
  now(): number;
  /**
   * Milliseconds on a clock that never steps back nor jumps when the wall clock is set (a Pi
   * has no real-time clock and often boots with a wrong time). Only differences mean anything:
   * every lockout, idle limit and timeout is measured on it.
   */
  monotonic(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
