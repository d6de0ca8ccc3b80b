import type { Clock } from '../clock/clock.port.js';
import { TooManyRequestsError } from '../errors.js';

export interface AttemptLimiterOptions {
  maxFailures: number;
  windowMs: number;
}

/**
 * Counts failed PIN attempts per client in a sliding window. While a client is over the
 * limit every attempt is refused, right or wrong, so guessing stays slow.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly options: AttemptLimiterOptions = { maxFailures: 5, windowMs: 5 * 60_000 },
  ) {}

  private recent(key: string): number[] {
    const since = this.clock.now() - this.options.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  assertAllowed(key: string): void {
    const list = this.recent(key);
    if (list.length < this.options.maxFailures) return;
    const oldest = list[list.length - this.options.maxFailures] ?? this.clock.now();
    const retryMs = oldest + this.options.windowMs - this.clock.now();
    throw new TooManyRequestsError('Too many wrong PIN attempts; wait before trying again', Math.max(1, Math.ceil(retryMs / 1000)));
  }

  recordFailure(key: string): void {
    this.failures.set(key, [...this.recent(key), this.clock.now()]);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
