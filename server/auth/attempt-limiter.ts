import type { Clock } from '../core/clock/clock.port.js';
import { TooManyRequestsError } from '../core/errors.js';
import { clientKey } from '../core/util/client-key.js';

export interface AttemptLimiterOptions {
  /** Failures one client may make in the window. */
  maxFailures: number;
  /** Failures all network clients together may make in the window. */
  maxGlobalFailures: number;
  windowMs: number;
}

export const defaultLimiterOptions: AttemptLimiterOptions = { maxFailures: 5, maxGlobalFailures: 30, windowMs: 5 * 60_000 };

/** Waits after the booth's n-th consecutive wrong PIN: 1, 2, 4, 8, 16, then 30 s at most. */
export function localDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(30_000, 1000 * 2 ** (failures - 1));
}

interface LocalStreak {
  failures: number;
  lastAt: number;
}

const GLOBAL = '*';

/**
 * Counts PIN attempts in a sliding window. An attempt counts as a failure from the moment it
 * starts, and a success forgives only that attempt: a wrong PIN at sign-in may be a guess at
 * either key, so the event PIN typed right in between never wipes out guesses at the owner's
 * (issue 43). So a burst of parallel guesses is counted before any of them is checked. Clients
 * are keyed by address (an IPv6 client by its /64, which one phone can rotate within); network
 * clients also share a global budget, which the booth's own loopback client is not part of, so
 * an attack from the Wi-Fi cannot lock the operator out. The loopback client is shared by the
 * operator and any guest poking at the touchscreen, so it is never locked for minutes here: each
 * wrong PIN only makes it wait a little longer (`localDelayMs`); the owner's PIN has its own,
 * longer backoff (owner-backoff.ts).
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();
  private local: LocalStreak | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly options: AttemptLimiterOptions = defaultLimiterOptions,
  ) {}

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
   * limit, else counts it as a failure. Call the returned function when the attempt succeeds: it
   * forgives that attempt alone.
   */
  begin(address: string, isLocal: boolean): () => void {
    if (isLocal) return this.beginLocal();
    const key = clientKey(address);
    this.check(key, this.options.maxFailures);
    this.check(GLOBAL, this.options.maxGlobalFailures);
    const at = this.clock.monotonic();
    this.push(key, at);
    this.push(GLOBAL, at);
    return () => {
      this.drop(key, at);
      this.drop(GLOBAL, at);
    };
  }

  /** The owner's PIN was typed right at the booth: its operator no longer waits for earlier mistakes. */
  clearLocal(): void {
    this.local = undefined;
  }

  /** Seconds the booth must wait before its next try (0 for network clients, counted by window). */
  localWaitSeconds(): number {
    if (!this.local) return 0;
    const waitMs = this.local.lastAt + localDelayMs(this.local.failures) - this.clock.monotonic();
    return Math.max(0, Math.ceil(waitMs / 1000));
  }

  private beginLocal(): () => void {
    const now = this.clock.monotonic();
    const streak = this.local && now - this.local.lastAt < this.options.windowMs ? this.local : undefined;
    if (streak) {
      const waitMs = streak.lastAt + localDelayMs(streak.failures) - now;
      if (waitMs > 0) throw new TooManyRequestsError('Wrong PIN; wait a moment before trying again', Math.ceil(waitMs / 1000));
    }
    const next = { failures: (streak?.failures ?? 0) + 1, lastAt: now };
    this.local = next;
    return () => {
      // Back to the streak as it stood before this attempt; one that moved on meanwhile loses this attempt only.
      if (this.local === next) this.local = streak;
      else if (this.local) this.local = { ...this.local, failures: Math.max(0, this.local.failures - 1) };
    };
  }
}
