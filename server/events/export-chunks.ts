import { close, open, read } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Readable, type Writable } from 'node:stream';
import { ChunkedSocketWriter } from './export-framing.js';

/** Read size: archiver's default 64 KiB chunks cost a third of the read speed. */
export const CHUNK_BYTES = 1 << 20;
/** Read ahead of archiver per file: a few chunks, so the disk never waits for the CRC or the socket. */
const READ_AHEAD_BYTES = 2 * CHUNK_BYTES;
/** Free chunks kept for reuse: what is in flight between the disk and the socket, with room. */
const KEPT_FREE = 16;

/**
 * Chunks for the export's file reads, reused once the socket has taken them. A fresh megabyte
 * for every read costs the kernel a page fault per 4 KiB: on a 2-core machine, reading into new
 * buffers ran at a fifth of the speed of reading into the same ones, and the export spent more
 * time there than in the CRC. A chunk is handed back only by the response's write callback
 * (the bytes are in the kernel then); one that never gets there is left to the garbage collector.
 */
export class ChunkPool {
  private readonly free: Buffer[] = [];
  /** The whole chunk behind each part handed out (a file's last read fills only part of one). */
  private readonly owners = new WeakMap<Buffer, Buffer>();

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
  }

  /** Marks `part` as a view of `whole`, so that writing it out frees `whole`. */
  lend(part: Buffer, whole: Buffer): Buffer {
    this.owners.set(part, whole);
    return part;
  }

  /** Takes a chunk back, or anything else is ignored. */
  release(chunk: Buffer): void {
    const whole = this.owners.get(chunk);
    if (!whole) return;
    this.owners.delete(chunk);
    if (this.free.length < KEPT_FREE) this.free.push(whole);
  }
}

/** A file read into the pool's chunks, one after the other, a few chunks ahead. */
export class PooledFileStream extends Readable {
  private fd: number | undefined;
  private position = 0;

  constructor(
    private readonly file: string,
    private readonly pool: ChunkPool,
  ) {
    super({ highWaterMark: READ_AHEAD_BYTES });
  }

  override _construct(callback: (err?: Error | null) => void): void {
    open(this.file, 'r', (err, fd) => {
      if (err) return callback(err);
      this.fd = fd;
      callback();
    });
  }

  override _read(): void {
    const chunk = this.pool.take();
    read(this.fd as number, chunk, 0, chunk.length, this.position, (err, bytes) => {
      if (err) {
        this.pool.release(this.pool.lend(chunk, chunk));
        this.destroy(err);
        return;
      }
      if (bytes === 0) {
        this.pool.release(this.pool.lend(chunk, chunk));
        this.push(null);
        return;
      }
      this.position += bytes;
      this.push(this.pool.lend(bytes === chunk.length ? chunk : chunk.subarray(0, bytes), chunk));
    });
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return callback(err);
    close(fd, () => callback(err));
  }
}

/**
 * Whether chunks written to `out` can be reused after its write callback. An HTTP response, a
 * socket or the export process's framing on one calls it once the bytes are in the kernel; any other stream
 * may still hold the chunk (a test's sink, a transform), so its chunks are never reused.
 */
export function releasesOnWrite(out: Writable): boolean {
  return out instanceof ServerResponse || out instanceof Socket || out instanceof ChunkedSocketWriter;
}

/**
 * Makes `out` hand each pooled chunk back once written. Only the write path changes: archiver
 * pipes into `out` as before, and a write that fails leaves its chunk to the garbage collector.
 */
export function releaseAfterWrite(out: Writable, pool: ChunkPool): void {
  const write = out.write.bind(out) as (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;
  const patched = (chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
    if (!Buffer.isBuffer(chunk)) return write(chunk, encoding, cb);
    const done = typeof encoding === 'function' ? encoding : cb;
    const enc = typeof encoding === 'function' ? undefined : encoding;
    return write(chunk, enc, (err?: Error | null) => {
      if (!err) pool.release(chunk);
      if (typeof done === 'function') (done as (err?: Error | null) => void)(err);
    });
  };
  out.write = patched as Writable['write'];
}
