import { StreamSlots } from './stream-slots.js';
import { Heartbeat } from './heartbeat.js';
import type { Clock } from './clock/clock.port.js';
import { createSystemClock } from './clock/clock.system.js';
import type { StreamChannel, StreamEventName, StreamEvents, StreamMessage } from '../contract/stream.contract.js';

/**
 * How often an idle live stream gets a comment. Phones' browsers hold an EventSource open however
 * long it stays silent (the HTML standard sets no idle limit); what cuts a silent stream is on the
 * way, an access point, a proxy or a phone's network stack, commonly after 60 s without a byte.
 * Half of that leaves room for a dozing Wi-Fi: a stream cut would cost far more than the writes
 * saved (a reconnection, and the phone reads the gallery again). Any event written meanwhile counts.
 */
export const KEEP_ALIVE_MS = 30_000;

export type HubListener<C extends StreamChannel> = (message: StreamMessage<C>) => void;

/**
 * In-process publish/subscribe by channel ("admin", "gallery"): services publish, the SSE
 * routes forward to browsers. Services never know who listens; the contract's map types both ends.
 */
export class EventHub {
  /** One timer that keeps every open live stream alive (sse.ts): it beats at half KEEP_ALIVE_MS, only while one is open. */
  readonly keepAlive: Heartbeat;

  /** Live streams held by browsers, capped per client and in all. */
  constructor(
    readonly slots: StreamSlots = new StreamSlots(),
    clock: Clock = createSystemClock(),
    keepAliveMs = KEEP_ALIVE_MS,
  ) {
    this.keepAlive = new Heartbeat(clock, keepAliveMs / 2);
  }

  private readonly channels = new Map<StreamChannel, Set<(message: never) => void>>();

  publish<C extends StreamChannel, E extends StreamEventName<C>>(channel: C, event: E, data: StreamEvents[C][E]): void {
    const message = { event, data } as unknown as StreamMessage<C>;
    for (const listener of this.listeners(channel)) listener(message);
  }

  subscribe<C extends StreamChannel>(channel: C, listener: HubListener<C>): () => void {
    const set = this.channels.get(channel) ?? new Set();
    set.add(listener);
    this.channels.set(channel, set);
    return () => set.delete(listener);
  }

  listenerCount(channel: StreamChannel): number {
    return this.channels.get(channel)?.size ?? 0;
  }

  private listeners<C extends StreamChannel>(channel: C): HubListener<C>[] {
    return [...(this.channels.get(channel) ?? [])] as HubListener<C>[];
  }
}
