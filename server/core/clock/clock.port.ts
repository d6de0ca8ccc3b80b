export type TimerHandle = { readonly id: number };

/** Time as a port, so that rate limits, idle expiry and timers can be driven by tests. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
