import type { Request, Response } from 'express';
import type { EventHub } from '../core/event-hub.js';

/**
 * Streams one hub channel to a browser as server-sent events. A comment every 15 s keeps
 * proxies and phones from closing an idle stream; `initial` events go first.
 */
export function streamChannel(
  hub: EventHub,
  channel: string,
  req: Request,
  res: Response,
  initial: { event: string; data: unknown }[] = [],
): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  const send = (event: string, data: unknown): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  res.write('retry: 3000\n\n');
  initial.forEach((e) => send(e.event, e.data));
  const unsubscribe = hub.subscribe(channel, send);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}
