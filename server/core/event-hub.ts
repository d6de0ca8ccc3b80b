export type HubListener = (event: string, data: unknown) => void;

/**
 * In-process publish/subscribe by channel ("admin", "gallery"): services publish, the SSE
 * routes forward to browsers. Services never know who listens.
 */
export class EventHub {
  private readonly channels = new Map<string, Set<HubListener>>();

  publish(channel: string, event: string, data: unknown): void {
    for (const listener of this.channels.get(channel) ?? []) listener(event, data);
  }

  subscribe(channel: string, listener: HubListener): () => void {
    const set = this.channels.get(channel) ?? new Set<HubListener>();
    set.add(listener);
    this.channels.set(channel, set);
    return () => set.delete(listener);
  }

  listenerCount(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }
}
