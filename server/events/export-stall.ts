import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import os from 'node:os';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';

/** An export whose reader takes nothing for this long is ended. */
export const EXPORT_STALL_MS = 60_000;
/** How often the connection's send queue is looked at. */
const LOOK_EVERY_MS = 5_000;

/** The TCP connection of a download: the service's end of it, as the socket knows it. */
export interface Connection {
  localPort?: number;
  remotePort?: number;
  remoteAddress?: string;
}

const littleEndian = os.endianness() === 'LE';

/** One 32-bit word of an address as /proc/net/tcp writes it: in the machine's own byte order. */
const word = (bytes: number[]): string =>
  (littleEndian ? [...bytes].reverse() : bytes).map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');

function ipv6Bytes(address: string): number[] | undefined {
  const [head = '', tail] = address.split('::');
  if (address.split('::').length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (isIPv4(g)) out.push(...g.split('.').map(Number));
      else if (/^[0-9a-fA-F]{1,4}$/.test(g)) out.push(parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff);
      else return undefined;
    }
    return out;
  };
  const a = groups(head);
  const b = tail === undefined ? [] : groups(tail);
  if (!a || !b) return undefined;
  const fill = 16 - a.length - b.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return undefined;
  return [...a, ...Array<number>(fill).fill(0), ...b];
}

/** The address as it appears in /proc/net/tcp (IPv4) or tcp6; an IPv4-mapped one in both forms. */
export function procAddresses(address: string): string[] {
  if (isIPv4(address)) {
    const v4 = word(address.split('.').map(Number));
    return [v4, `${word([0, 0, 0, 0])}${word([0, 0, 0, 0])}${word([0, 0, 0xff, 0xff])}${v4}`];
  }
  const bytes = ipv6Bytes(address.replace(/%.*$/, ''));
  if (!bytes) return [];
  const v6 = [0, 4, 8, 12].map((i) => word(bytes.slice(i, i + 4))).join('');
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? [v6, word(bytes.slice(12))] : [v6];
}

/**
 * Bytes the kernel holds for the connection that its reader has not acknowledged yet (the
 * `tx_queue` of /proc/net/tcp); undefined where it cannot be told (not Linux, not a TCP socket).
 * The kernel's count goes down as the reader reads, whoever writes: the service, or the export
 * process on its copy of the socket.
 */
export function unreadBytes(conn: Connection, tables = ['/proc/net/tcp', '/proc/net/tcp6']): number | undefined {
  if (conn.localPort === undefined || conn.remotePort === undefined || conn.remoteAddress === undefined) return undefined;
  const local = conn.localPort.toString(16).toUpperCase().padStart(4, '0');
  const remote = conn.remotePort.toString(16).toUpperCase().padStart(4, '0');
  const addresses = procAddresses(conn.remoteAddress);
  for (const table of tables) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const fields = line.trim().split(/\s+/);
      const [localField, remoteField, state, queues] = [fields[1], fields[2], fields[3], fields[4]];
      if (state !== '01' || !localField?.endsWith(`:${local}`) || !remoteField?.endsWith(`:${remote}`)) continue;
      if (!addresses.includes(remoteField.slice(0, -5))) continue;
      const tx = queues?.split(':')[0];
      return tx === undefined ? undefined : parseInt(tx, 16);
    }
  }
  return undefined;
}

/**
 * Ends a download whose reader has stopped reading: bytes wait in the kernel for it and their
 * count has not moved for EXPORT_STALL_MS, on the monotonic clock. A reader that takes anything
 * moves the count; so does the writer adding bytes. An export process left without CPU by the
 * capture app is not a stalled reader: the kernel's queue then empties and nothing waits on the
 * reader. The connection is looked at, not the writes, so the same watch holds whether the service
 * or the export process writes the body (the HTTP server's own timeouts do not see the latter's).
 */
export class StallWatch {
  private timer: TimerHandle | undefined;
  private last: number | undefined;
  private since: number;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly conn: Connection,
    private readonly onStall: () => void,
    private readonly stallMs = EXPORT_STALL_MS,
    private readonly read: (conn: Connection) => number | undefined = unreadBytes,
  ) {
    this.since = clock.monotonic();
    this.arm();
  }

  private arm(): void {
    this.timer = this.clock.setTimeout(() => this.look(), LOOK_EVERY_MS);
  }

  private look(): void {
    if (this.stopped) return;
    const now = this.clock.monotonic();
    const unread = this.read(this.conn);
    if (unread === undefined || unread === 0 || unread !== this.last) {
      this.last = unread;
      this.since = now;
    } else if (now - this.since >= this.stallMs) {
      this.stop();
      this.onStall();
      return;
    }
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
