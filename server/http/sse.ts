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

/** One serialisation per event, shared by every stream it goes to (200 phones, one encoding). */
const framed = new WeakMap<object, Buffer>();
function frame(message: StreamMessage<StreamChannel>): Buffer {
  let bytes = framed.get(message);
  if (bytes === undefined) {
    bytes = Buffer.from(`event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);
    framed.set(message, bytes);
  }
  return bytes;
}

/** The comment a silent stream gets: the same bytes for every stream. */
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');
const RETRY = Buffer.from('retry: 3000\n\n');

/**
 * Streams one hub channel to a browser as server-sent events; `initial` events go first. A stream
 * silent for KEEP_ALIVE_MS gets a comment, so that nothing on the way closes it: the hub's one
 * timer beats at half that for every stream, and a stream that had an event since writes nothing.
 * Each stream takes one of the hub's slots (a 429 when the client or the booth has too many),
 * freed on close. A client whose unread bytes pass MAX_UNREAD_BYTES is dropped: the others never
 * wait for it.
 */
export function streamChannel<C extends StreamChannel>(
  hub: EventHub,
  channel: C,
  req: Request,
  res: Response,
  initial: StreamMessage<C>[] = [],
): void {
  const client = clientInfo(req);
  const release = hub.slots.acquire(client.address, client.isLocal, channel);
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  /** Beats of the hub's keep-alive since anything was written: two (one interval) means silence. */
  let silentBeats = 0;
  const write = (bytes: Buffer): void => {
    if (res.destroyed) return;
    if (res.writableLength + bytes.length > MAX_UNREAD_BYTES) {
      res.destroy();
      return;
    }
    silentBeats = 0;
    res.write(bytes);
  };
  const send = (message: StreamMessage<C>): void => write(frame(message as StreamMessage<StreamChannel>));
  write(RETRY);
  initial.forEach(send);
  const unsubscribe = hub.subscribe(channel, send);
  const leave = hub.keepAlive.join(() => {
    if (++silentBeats >= 2) write(KEEP_ALIVE);
  });
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    leave();
    unsubscribe();
    release();
  };
  req.on('close', close);
  res.on('close', close);
}
