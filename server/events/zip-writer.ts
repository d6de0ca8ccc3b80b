import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const FLAG_DATA_DESCRIPTOR = 1 << 3;
const FLAG_UTF8 = 1 << 11;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
const CHUNK = 1024 * 1024;

interface CentralEntry {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  zip64: boolean;
  time: number;
  date: number;
}

/**
 * Reads a file chunk by chunk with the next read already under way (in libuv's thread pool)
 * while the current chunk is checksummed and sent: the CRC costs no extra time over the read.
 * Each chunk is a fresh buffer, since the output may still hold the previous ones.
 */
async function* readAhead(handle: FileHandle): AsyncGenerator<Buffer> {
  let position = 0;
  let next = handle.read(Buffer.allocUnsafe(CHUNK), 0, CHUNK, position);
  for (;;) {
    const { bytesRead, buffer } = await next;
    if (bytesRead === 0) return;
    position += bytesRead;
    next = handle.read(Buffer.allocUnsafe(CHUNK), 0, CHUNK, position);
    yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  }
}

export class ZipAbortedError extends Error {
  override name = 'ZipAbortedError';
}

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A streaming ZIP writer for files that do not compress (photos): entries are stored, their
 * CRC computed with zlib's native crc32 as the bytes pass, sizes written after the data (data
 * descriptors), ZIP64 records added once the archive outgrows 4 GB or 65,535 entries. It writes
 * with backpressure and holds one chunk at a time, whatever the size of the archive.
 */
export class StoredZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private closed = false;

  /** `zip64Threshold` exists so tests can exercise the ZIP64 records without writing 4 GB. */
  constructor(
    private readonly out: Writable,
    private readonly zip64Threshold = MAX32,
  ) {
    out.once('close', () => {
      this.closed = true;
    });
  }

  get bytesWritten(): number {
    return this.offset;
  }

  /** Resolves on the first of `events`, and leaves no listener behind. */
  private first(events: string[]): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        events.forEach((e) => this.out.off(e, done));
        resolve();
      };
      events.forEach((e) => this.out.once(e, done));
    });
  }

  private async write(data: Buffer): Promise<void> {
    if (this.closed || this.out.destroyed) throw new ZipAbortedError('The client went away');
    this.offset += data.length;
    if (!this.out.write(data)) {
      await this.first(['drain', 'close']);
      if (this.closed || this.out.destroyed) throw new ZipAbortedError('The client went away');
    }
  }

  /** A ZIP64 entry announces itself with a ZIP64 extra field (sizes left for the descriptor). */
  private localHeader(name: Buffer, stamp: { time: number; date: number }, zip64: boolean): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
    header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8, 6);
    header.writeUInt16LE(0, 8);
    header.writeUInt16LE(stamp.time, 10);
    header.writeUInt16LE(stamp.date, 12);
    if (zip64) {
      header.writeUInt32LE(MAX32, 18);
      header.writeUInt32LE(MAX32, 22);
    }
    header.writeUInt16LE(name.length, 26);
    const extra = Buffer.alloc(zip64 ? 20 : 0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
    }
    header.writeUInt16LE(extra.length, 28);
    return Buffer.concat([header, name, extra]);
  }

  private descriptor(crc: number, size: number, zip64: boolean): Buffer {
    const d = Buffer.alloc(zip64 ? 24 : 16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(crc, 4);
    if (zip64) {
      d.writeBigUInt64LE(BigInt(size), 8);
      d.writeBigUInt64LE(BigInt(size), 16);
    } else {
      d.writeUInt32LE(size, 8);
      d.writeUInt32LE(size, 12);
    }
    return d;
  }

  /** Adds one entry of `expectedSize` bytes, which come from `chunks`. */
  private async add(fileName: string, modified: Date, expectedSize: number, chunks: AsyncIterable<Buffer>): Promise<void> {
    const name = Buffer.from(fileName, 'utf8');
    const stamp = dosDateTime(modified);
    const offset = this.offset;
    const zip64 = expectedSize >= this.zip64Threshold;
    await this.write(this.localHeader(name, stamp, zip64));
    let crc = 0;
    let size = 0;
    for await (const chunk of chunks) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      if (size >= this.zip64Threshold && !zip64) throw new Error(`${fileName} grew past 4 GB while being archived`);
      await this.write(chunk);
    }
    await this.write(this.descriptor(crc, size, zip64));
    this.entries.push({ name, crc, size, offset, zip64, ...stamp });
  }

  async addFile(fileName: string, modified: Date, handle: FileHandle): Promise<void> {
    const { size } = await handle.stat();
    await this.add(fileName, modified, size, readAhead(handle));
  }

  async addBuffer(fileName: string, modified: Date, data: Buffer): Promise<void> {
    await this.add(
      fileName,
      modified,
      data.length,
      (async function* () {
        yield data;
      })(),
    );
  }

  private centralHeader(e: CentralEntry): Buffer {
    const bigSize = e.zip64;
    const bigOffset = e.offset >= this.zip64Threshold;
    const extra: Buffer[] = [];
    if (bigSize) extra.push(Buffer.alloc(8), Buffer.alloc(8));
    if (bigOffset) extra.push(Buffer.alloc(8));
    let extraField = Buffer.alloc(0);
    if (extra.length > 0) {
      extraField = Buffer.alloc(4 + extra.length * 8);
      extraField.writeUInt16LE(0x0001, 0);
      extraField.writeUInt16LE(extra.length * 8, 2);
      let at = 4;
      if (bigSize) {
        extraField.writeBigUInt64LE(BigInt(e.size), at);
        extraField.writeBigUInt64LE(BigInt(e.size), at + 8);
        at += 16;
      }
      if (bigOffset) extraField.writeBigUInt64LE(BigInt(e.offset), at);
    }
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(VERSION_ZIP64, 4);
    h.writeUInt16LE(extra.length > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
    h.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8, 8);
    h.writeUInt16LE(0, 10);
    h.writeUInt16LE(e.time, 12);
    h.writeUInt16LE(e.date, 14);
    h.writeUInt32LE(e.crc, 16);
    h.writeUInt32LE(bigSize ? MAX32 : e.size, 20);
    h.writeUInt32LE(bigSize ? MAX32 : e.size, 24);
    h.writeUInt16LE(e.name.length, 28);
    h.writeUInt16LE(extraField.length, 30);
    h.writeUInt32LE(bigOffset ? MAX32 : e.offset, 42);
    return Buffer.concat([h, e.name, extraField]);
  }

  /** Writes the central directory and ends the output. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) await this.write(this.centralHeader(e));
    const size = this.offset - start;
    const count = this.entries.length;
    const zip64 = count >= MAX16 || start >= this.zip64Threshold || size >= this.zip64Threshold;
    if (zip64) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(VERSION_ZIP64, 12);
      record.writeUInt16LE(VERSION_ZIP64, 14);
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const recordOffset = this.offset;
      await this.write(record);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(recordOffset), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(zip64 ? MAX16 : count, 8);
    end.writeUInt16LE(zip64 ? MAX16 : count, 10);
    end.writeUInt32LE(zip64 ? MAX32 : size, 12);
    end.writeUInt32LE(zip64 ? MAX32 : start, 16);
    await this.write(end);
    if (this.closed) throw new ZipAbortedError('The client went away');
    const ended = this.first(['finish', 'close']);
    this.out.end();
    await ended;
  }
}
