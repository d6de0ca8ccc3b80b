import { StreamSlots } from './stream-slots.js';
import type { StreamChannel, StreamEventName, StreamEvents, StreamMessage } from '../contract/stream.contract.js';

export type HubListener<C extends StreamChannel> = (message: StreamMessage<C>) => void;

/**
 * In-process publish/subscribe by channel ("admin", "gallery"): services publish, the SSE
 * routes forward to browsers. Services never know who listens; the contract's map types both ends.
 */
export class EventHub {
  /** Live streams held by browsers, capped per client and in all. */
  constructor(readonly slots: StreamSlots = new StreamSlots()) {}

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
