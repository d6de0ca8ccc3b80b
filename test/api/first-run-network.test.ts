import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { Request } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackClient } from '../../server/http/request-context.js';
import { buildTestApp } from '../support/app.js';

const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;

const fromAddress = (remoteAddress: string): Request => ({ socket: { remoteAddress } }) as unknown as Request;

describe('who may choose the first PIN', () => {
  it('counts only loopback sockets as the booth itself', () => {
    expect(isLoopbackClient(fromAddress('127.0.0.1'))).toBe(true);
    expect(isLoopbackClient(fromAddress('::1'))).toBe(true);
    expect(isLoopbackClient(fromAddress('::ffff:127.0.0.1'))).toBe(true);
    expect(isLoopbackClient(fromAddress('192.168.1.20'))).toBe(false);
    expect(isLoopbackClient(fromAddress('::ffff:10.0.0.5'))).toBe(false);
  });

  let close: (() => void) | undefined;
  afterEach(() => close?.());

  // Runs on every machine: over a real LAN interface when there is one, otherwise over loopback
  // with the server-side socket relabelled as a phone's, which is all the guard can see.
  it(`refuses a guest on the network who tries to claim the booth (${lanAddress ? 'real LAN interface' : 'relabelled socket'})`, async () => {
    const { app } = await buildTestApp({ pin: null });
    const server = http.createServer(app);
    if (!lanAddress) {
      server.on('connection', (socket) => Object.defineProperty(socket, 'remoteAddress', { value: '192.168.1.20' }));
    }
    server.listen(0, lanAddress ? '0.0.0.0' : '127.0.0.1');
    close = () => server.close();
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://${lanAddress ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
    const status = (await (await fetch(`${base}/api/admin/session`)).json()) as { first_run_allowed: boolean };
    expect(status.first_run_allowed).toBe(false);
    const res = await fetch(`${base}/api/admin/session/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pin: '1234' }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_local');
    const after = (await (await fetch(`${base}/api/admin/session`)).json()) as { pin_set: boolean };
    expect(after.pin_set).toBe(false);
  });
});
