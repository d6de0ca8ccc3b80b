import type { Request, Response } from 'express';
import type { StreamChannel, StreamMessage } from '../contract/stream.contract.js';
import type { EventHub } from '../core/event-hub.js';
import { clientInfo } from './request-context.js';

/**
 * Streams one hub channel to a browser as server-sent events. A comment every 15 s keeps
 * proxies and phones from closing an idle stream; `initial` events go first. Each stream takes
 * one of the hub's slots (a 429 when the client or the booth has too many), freed on close.
 */
export function streamChannel<C extends StreamChannel>(
  hub: EventHub,
  channel: C,
  req: Request,
  res: Response,
  initial: StreamMessage<C>[] = [],
): void {
  const client = clientInfo(req);
  const release = hub.slots.acquire(client.address, client.isLocal);
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
    release();
  });
}
