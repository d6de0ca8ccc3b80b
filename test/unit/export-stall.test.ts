import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { EventExportService, type ExportPlan } from '../../server/events/event-export.js';
import { procAddresses, unreadBytes } from '../../server/events/export-stall.js';
import type { EventService } from '../../server/events/event.service.js';
import type { PhotoRepository } from '../../server/photos/photo.repository.js';
import { exportProcesses } from '../support/export-processes.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** 12 files of 2 MB: far more than the kernel's buffers of both ends hold. */
function bigPlan(): ExportPlan {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-stall-'));
  dirs.push(dir);
  const entries = Array.from({ length: 12 }, (_, i) => {
    const file = path.join(dir, `${i}.jpg`);
    writeFileSync(file, randomBytes(2 * 1024 * 1024));
    return { name: `${i}.jpg`, file, size: 2 * 1024 * 1024, mtime: Date.UTC(2026, 10, 22) };
  });
  return { eventId: 1, fileName: 'x.zip', entries, totalBytes: entries.reduce((n, e) => n + e.size, 0) };
}

interface Download {
  outcome: Promise<string>;
  /** The client's end: paused after the first bytes, as a script that stops reading. */
  client: Promise<{ socket: Socket; res: http.IncomingMessage }>;
  server: http.Server;
}

function stalledDownload(clock: FakeClock, workers: 'in-process' | 'processes'): Download {
  const plan = bigPlan();
  const exports = new EventExportService(
    { recordExport: () => undefined } as unknown as EventService,
    {} as PhotoRepository,
    os.tmpdir(),
    clock,
    {
      workers,
    },
  );
  let settle: (s: string) => void = () => undefined;
  const outcome = new Promise<string>((resolve) => (settle = resolve));
  const server = http.createServer((_req, res) => {
    exports.write(plan, res).then(
      (s) => settle(s.state),
      (err: Error) => settle(`failed: ${err.message}`),
    );
  });
  server.listen(0, '127.0.0.1');
  const client = once(server, 'listening').then(
    () =>
      new Promise<{ socket: Socket; res: http.IncomingMessage }>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        const req = http.get({ port, host: '127.0.0.1', path: '/' }, (res) => {
          res.once('data', () => {
            res.pause();
            resolve({ socket: res.socket, res });
          });
          res.on('error', () => undefined);
        });
        req.on('error', reject);
      }),
  );
  return { outcome, client, server };
}

/** The service's end of the download, as the kernel counts its unread bytes. */
const serverSide = (client: Socket) => ({ localPort: client.remotePort, remotePort: client.localPort, remoteAddress: client.localAddress });

/** Waits until the bytes waiting on the stalled reader stop changing: both ends' buffers are full. */
async function untilFull(client: Socket): Promise<void> {
  let last = -1;
  await vi.waitFor(
    async () => {
      const now = unreadBytes(serverSide(client)) ?? 0;
      const same = now > 0 && now === last;
      last = now;
      if (!same) await new Promise((r) => setTimeout(r, 100));
      expect(same).toBe(true);
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('a download whose reader stops reading', () => {
  it.each(['in-process', 'processes'] as const)('is ended once nothing moved for a minute, not before (%s)', async (workers) => {
    const clock = new FakeClock();
    const { outcome, client, server } = stalledDownload(clock, workers);
    try {
      const { socket } = await client;
      await untilFull(socket);
      let settled = false;
      void outcome.then(() => (settled = true));
      // 55 s of the booth's monotonic clock: still there.
      for (let s = 0; s < 55; s += 5) clock.advance(5_000);
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
      for (let s = 0; s < 15; s += 5) clock.advance(5_000);
      expect(await outcome).toBe('aborted');
      // Nothing of the service holds the connection open any more.
      await vi.waitFor(() => expect(unreadBytes(serverSide(socket))).toBeUndefined());
      await vi.waitFor(() => expect(exportProcesses()).toEqual([]));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('lets a slow reader that keeps reading go on', async () => {
    const clock = new FakeClock();
    const { outcome, client, server } = stalledDownload(clock, 'processes');
    try {
      const { socket, res } = await client;
      await untilFull(socket);
      // Two minutes of the booth's clock, with a little taken by the reader every 10 s of it.
      for (let s = 0; s < 120; s += 10) {
        while (res.read(64 * 1024) === null && res.readableLength > 0) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, 30));
        clock.advance(5_000);
        clock.advance(5_000);
      }
      let settled = false;
      void outcome.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
      res.resume();
      expect(await outcome).toBe('done');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('the unread bytes of a connection, as the service sees its end', () => {
  /** A connection whose client reads nothing while the server writes `bytes`: the server's socket. */
  async function unreadConnection(listenOn: string, connectTo: string): Promise<{ server: net.Server; client: Socket; socket: Socket }> {
    const server = net.createServer();
    server.listen(0, listenOn);
    await once(server, 'listening');
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const client = net.connect((server.address() as AddressInfo).port, connectTo);
    client.pause();
    const [socket] = await accepted;
    socket.write(randomBytes(8 * 1024 * 1024));
    return { server, client, socket };
  }

  it.each([
    ['IPv4', '127.0.0.1', '127.0.0.1'],
    ['IPv6', '::1', '::1'],
    ['IPv4 on a dual-stack socket (IPv4-mapped)', '::', '127.0.0.1'],
  ])('are found for %s', async (_kind, listenOn, connectTo) => {
    const { server, client, socket } = await unreadConnection(listenOn, connectTo);
    try {
      const conn = { localPort: socket.localPort, remotePort: socket.remotePort, remoteAddress: socket.remoteAddress };
      await vi.waitFor(() => expect(unreadBytes(conn)).toBeGreaterThan(0));
    } finally {
      client.destroy();
      socket.destroy();
      server.close();
    }
  });
});

describe('the addresses of /proc/net/tcp', () => {
  it('writes IPv4, IPv6 and IPv4-mapped addresses in the machine’s order', () => {
    const le = os.endianness() === 'LE';
    expect(procAddresses('127.0.0.1')[0]).toBe(le ? '0100007F' : '7F000001');
    expect(procAddresses('::1')).toEqual([le ? '00000000000000000000000001000000' : '00000000000000000000000000000001']);
    expect(procAddresses('::ffff:192.168.1.4')).toContain(le ? '0401A8C0' : 'C0A80104');
    expect(procAddresses('not an address')).toEqual([]);
  });
});
