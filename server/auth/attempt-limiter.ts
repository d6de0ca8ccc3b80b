import type { Clock } from '../core/clock/clock.port.js';
import { TooManyRequestsError } from '../core/errors.js';

export interface AttemptLimiterOptions {
  /** Failures one client may make in the window. */
  maxFailures: number;
  /** Failures all network clients together may make in the window. */
  maxGlobalFailures: number;
  windowMs: number;
}

export const defaultLimiterOptions: AttemptLimiterOptions = { maxFailures: 5, maxGlobalFailures: 30, windowMs: 5 * 60_000 };

const GLOBAL = '*';

/**
 * Counts PIN attempts in a sliding window. An attempt counts as a failure from the moment it
 * starts, and is forgiven only if it succeeds: so a burst of parallel guesses is counted before
 * any of them is checked. Clients are keyed by address (an IPv6 client by its /64, which one
 * phone can rotate within); network clients also share a global budget, which the booth's
 * own loopback client is not part of, so an attack from the Wi-Fi cannot lock the operator out.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly options: AttemptLimiterOptions = defaultLimiterOptions,
  ) {}

  static keyOf(address: string): string {
    const plain = address.replace(/^::ffff:/, '');
    if (!plain.includes(':')) return plain;
    const groups = plain.split('::')[0]?.split(':') ?? [];
    return `${groups.slice(0, 4).join(':')}::/64`;
  }

  private recent(key: string): number[] {
    const since = this.clock.monotonic() - this.options.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  private check(key: string, max: number): void {
    const list = this.recent(key);
    if (list.length < max) return;
    const oldest = list[list.length - max] ?? this.clock.monotonic();
    const retryMs = oldest + this.options.windowMs - this.clock.monotonic();
    throw new TooManyRequestsError('Too many wrong PIN attempts; wait before trying again', Math.max(1, Math.ceil(retryMs / 1000)));
  }

  private push(key: string, at: number): void {
    this.failures.set(key, [...this.recent(key), at]);
  }

  private drop(key: string, at: number): void {
    const list = this.failures.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  /**
   * Starts an attempt: refuses it while the client (or the network as a whole) is over its
   * limit, else counts it as a failure. Call the returned function when the attempt succeeds.
   */
  begin(address: string, isLocal: boolean): () => void {
    const key = AttemptLimiter.keyOf(address);
    this.check(key, this.options.maxFailures);
    if (!isLocal) this.check(GLOBAL, this.options.maxGlobalFailures);
    const at = this.clock.monotonic();
    this.push(key, at);
    if (!isLocal) this.push(GLOBAL, at);
    return () => {
      this.failures.delete(key);
      if (!isLocal) this.drop(GLOBAL, at);
    };
  }
}
