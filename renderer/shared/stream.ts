import type { StreamChannel, StreamEventName, StreamEvents } from '../../server/contract/stream.contract.js';

/** A live stream of one channel whose listeners get the payload the contract names for each event. */
export interface TypedStream<C extends StreamChannel> {
  on<E extends StreamEventName<C>>(event: E, handler: (data: StreamEvents[C][E]) => void): void;
  onOpen(handler: () => void): void;
  onError(handler: () => void): void;
  close(): void;
}

/** Opens a channel's SSE route; the browser reconnects it by itself. */
export function openStream<C extends StreamChannel>(_channel: C, url: string): TypedStream<C> {
  const source = new EventSource(url);
  return {
    on(event, handler) {
      source.addEventListener(event, (e) => handler(JSON.parse((e as MessageEvent<string>).data) as Parameters<typeof handler>[0]));
    },
    onOpen: (handler) => source.addEventListener('open', handler),
    onError: (handler) => source.addEventListener('error', handler),
    close: () => source.close(),
  };
}
