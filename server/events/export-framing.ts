import type { Socket } from 'node:net';
import { Writable } from 'node:stream';

/**
 * HTTP/1.1 chunked framing written straight to the client's socket by the export process, which
 * holds a copy of the socket the service answered on: each write becomes one chunk (size line,
 * bytes, CRLF) and calls back once its bytes are in the kernel, so the read buffers behind it can
 * be reused. The last, empty chunk is the service's to write (`res.end()`) once the process said the
 * ZIP is whole: a process that dies midway leaves a body a client knows is cut. The socket is never
 * ended here, only left: ending it would close the service's connection too.
 */
export class ChunkedSocketWriter extends Writable {
  constructor(private readonly socket: Socket) {
    super({ highWaterMark: 2 * 1024 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (chunk.length === 0) return callback();
    const socket = this.socket;
    socket.cork();
    socket.write(`${chunk.length.toString(16)}\r\n`);
    socket.write(chunk);
    // A refused write means the client left: the ZIP ends as aborted (a close), not as an error.
    socket.write('\r\n', (err) => (err ? this.destroy() : callback()));
    socket.uncork();
  }

  override _final(callback: (error?: Error | null) => void): void {
    // Every chunk's callback has come (Writable waits for them before _final): nothing is left to send.
    callback();
  }
}
