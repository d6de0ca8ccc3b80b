import type { Request, Response } from 'express';
import type { StreamChannel, StreamMessage } from '../contract/stream.contract.js';
import type { EventHub } from '../core/event-hub.js';

/**
 * Streams one hub channel to a browser as server-sent events. A comment every 15 s keeps
 * proxies and phones from closing an idle stream; `initial` events go first.
 */
export function streamChannel<C extends StreamChannel>(
  hub: EventHub,
  channel: C,
  req: Request,
  res: Response,
  initial: StreamMessage<C>[] = [],
): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  const send = (message: StreamMessage<C>): void => {
    res.write(`event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);
  };
  res.write('retry: 3000\n\n');
  initial.forEach(send);
  const unsubscribe = hub.subscribe(channel, send);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}
