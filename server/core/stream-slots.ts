import { readFileSync } from 'node:fs';
import type { StreamChannel } from '../contract/stream.contract.js';
import { TooManyRequestsError } from './errors.js';
import { clientKey } from './util/client-key.js';

export interface StreamSlotOptions {
  /** Live streams one network client (an address; an IPv6 /64) may hold at once. */
  perClient: number;
  /** Live streams the booth itself (loopback) may hold: the kiosk, tests, tools. */
  perLocalClient: number;
  /** All streams together: well under the descriptor limit, so the gallery and sign-in keep theirs. */
  total: number;
}

/** The soft limit on open descriptors, from /proc (Linux); undefined elsewhere. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/** A quarter of the descriptors at most (files, SQLite, the capture app and requests need the rest). */
export function defaultStreamSlots(fdLimit = openFileLimit()): StreamSlotOptions {
  const total = Math.max(16, Math.min(1000, Math.floor((fdLimit ?? 1024) / 4)));
  return { perClient: 6, perLocalClient: 32, total };
}

/**
 * Counts live streams (server-sent events) by client. One phone opening a thousand streams
 * would otherwise hold a thousand descriptors and starve everyone else.
 */
export class StreamSlots {
  private readonly byClient = new Map<string, number>();
  private readonly byChannel = new Map<StreamChannel, number>();
  private count = 0;
  private readonly acquired = new Set<(channel: StreamChannel) => void>();

  constructor(readonly options: StreamSlotOptions = defaultStreamSlots()) {}

  /** Takes a slot for a stream of `channel`, or throws a 429; call the returned function once when the stream ends. */
  acquire(address: string, isLocal: boolean, channel: StreamChannel = 'gallery'): () => void {
    const key = clientKey(address);
    const held = this.byClient.get(key) ?? 0;
    const max = isLocal ? this.options.perLocalClient : this.options.perClient;
    if (held >= max) {
      throw new TooManyRequestsError(`Too many live streams from this device (at most ${max}); close other tabs`, 10, 'too_many_streams');
    }
    if (this.count >= this.options.total) {
      throw new TooManyRequestsError('Too many live streams on the booth; try again shortly', 10, 'too_many_streams');
    }
    this.byClient.set(key, held + 1);
    this.byChannel.set(channel, (this.byChannel.get(channel) ?? 0) + 1);
    this.count++;
    for (const listener of this.acquired) listener(channel);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count--;
      this.byChannel.set(channel, (this.byChannel.get(channel) ?? 1) - 1);
      const left = (this.byClient.get(key) ?? 1) - 1;
      if (left > 0) this.byClient.set(key, left);
      else this.byClient.delete(key);
    };
  }

  /** Tells `listener` each time a browser opens a stream, and of which channel: what it is about to read should be fresh. */
  onAcquire(listener: (channel: StreamChannel) => void): () => void {
    this.acquired.add(listener);
    return () => this.acquired.delete(listener);
  }

  get open(): number {
    return this.count;
  }

  /** Streams browsers hold open on one channel (the console's, the guests'). */
  openOn(channel: StreamChannel): number {
    return this.byChannel.get(channel) ?? 0;
  }
}
