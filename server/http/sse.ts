import type { Request, Response } from 'express';
import type { StreamChannel, StreamMessage } from '../contract/stream.contract.js';
import type { EventHub } from '../core/event-hub.js';
import { clientInfo } from './request-context.js';

/**
 * Bytes a stream may hold unread (written, not yet taken by the client's socket) before the
 * client is dropped: a phone that stopped reading must not make the booth keep every event
 * for it. Far above what a reading client ever holds (events are a few hundred bytes); the
 * browser reconnects by itself and loads the gallery afresh.
 */
export const MAX_UNREAD_BYTES = 256 * 1024;

/** One serialisation per event, shared by every stream it goes to (200 phones, one stringify). */
const framed = new WeakMap<object, string>();
function frame(message: StreamMessage<StreamChannel>): string {
  let text = framed.get(message);
  if (text === undefined) {
    text = `event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`;
    framed.set(message, text);
  }
  return text;
}

/**
 * Streams one hub channel to a browser as server-sent events. A comment every 15 s keeps
 * proxies and phones from closing an idle stream; `initial` events go first. Each stream takes
 * one of the hub's slots (a 429 when the client or the booth has too many), freed on close.
 * A client whose unread bytes pass MAX_UNREAD_BYTES is dropped: the others never wait for it.
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
  const write = (text: string): void => {
    if (res.destroyed) return;
    if (res.writableLength + text.length > MAX_UNREAD_BYTES) {
      res.destroy();
      return;
    }
    res.write(text);
  };
  const send = (message: StreamMessage<C>): void => write(frame(message as StreamMessage<StreamChannel>));
  write('retry: 3000\n\n');
  initial.forEach(send);
  const unsubscribe = hub.subscribe(channel, send);
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    release();
  };
  req.on('close', close);
  res.on('close', close);
}
