import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** More bytes than a reader accepts: the source is refused, never read to its end. */
export class TooLargeError extends Error {}

/** A source that took longer than its deadline, however steadily its bytes came. */
export class TooSlowError extends Error {}

/**
 * Reads a stream into memory, refusing it (and dropping it) past `max` bytes, or past
 * `deadlineMs` when given.
 */
export async function readBounded(stream: Readable, max: number, announced?: number, deadlineMs?: number): Promise<Buffer> {
  if (announced !== undefined && announced > max) {
    stream.destroy();
    throw new TooLargeError(`${announced} bytes announced, ${max} at most`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const timer =
    deadlineMs === undefined
      ? undefined
      : setTimeout(() => stream.destroy(new TooSlowError(`not sent within ${deadlineMs} ms`)), deadlineMs);
  timer?.unref();
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > max) throw new TooLargeError(`more than ${max} bytes`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    clearTimeout(timer);
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/** Copies a stream into a file, refusing it past `max` bytes; the file is removed on any failure. */
export async function copyBounded(stream: Readable, file: string, max: number, announced?: number): Promise<void> {
  if (announced !== undefined && announced > max) {
    stream.destroy();
    throw new TooLargeError(`${announced} bytes announced, ${max} at most`);
  }
  let size = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      callback(size > max ? new TooLargeError(`more than ${max} bytes`) : null, chunk);
    },
  });
  try {
    await pipeline(stream, bounded, createWriteStream(file));
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
}

/** Reads a file into memory, refusing it past `max` bytes. */
export async function readBoundedFile(file: string, max: number): Promise<Buffer> {
  return readBounded(createReadStream(file), max);
}
