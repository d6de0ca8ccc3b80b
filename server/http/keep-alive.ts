import type { Server } from 'node:http';

/**
 * How long a guest's idle connection is kept for its next request. Node closes one after 5 s, so a
 * guest who looks at a photo for longer opens a new connection for the next list or thumbnail: a
 * handshake over the booth's Wi-Fi for the phone, and for the board an accept, a parser and a
 * close per request, the largest part of what a phone's request cost the service's thread in the
 * share bench (docs/bench.md). Kept below the server's 60 s header limit, so that a connection
 * idle past it is closed by this timer and never cut by that one.
 */
export const GUEST_KEEP_ALIVE_MS = 30_000;

export function keepPhonesConnected(server: Server): void {
  server.keepAliveTimeout = GUEST_KEEP_ALIVE_MS;
}
