import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection is kept. A guest's phone asks again every few seconds
 * to a minute (a new photo's thumbnail, the next page); with Node's 5 s, nearly every one of
 * those opened a new connection (accept, a socket and a parser made and torn down, a fresh
 * handshake on the phone's side). A browser that wants its connection back sooner closes it itself.
 * Each idle one costs a descriptor and a few kilobytes; the live streams' cap leaves room for them.
 */
export const IDLE_CONNECTION_MS = 30_000;

/** The server's limits for idle connections; a request's headers still get Node's own minute at most. */
export function keepConnections(server: Server): void {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // Headers of a request on a kept connection must be allowed longer than the idle wait itself.
  server.headersTimeout = Math.max(server.headersTimeout, IDLE_CONNECTION_MS + 1000);
}
