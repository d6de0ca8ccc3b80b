import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { sendCaptureFile } from '../../server/http/send.js';
import { readBounded, TooSlowError } from '../../server/media/bounded-read.js';
import { buildTestApp } from '../support/app.js';

/** A body that sends a byte every 50 ms and never ends: a capture app trickling a preview. */
function trickle(): Readable {
  let timer: NodeJS.Timeout | undefined;
  return new Readable({
    read() {
      timer ??= setInterval(() => this.push(Buffer.from('x')), 50);
    },
    destroy(err, callback) {
      clearInterval(timer);
      callback(err);
    },
  });
}

describe('a power cut must not print twice', () => {
  it('commits every write to disk before answering (synchronous = FULL)', () => {
    const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'boothdeck-db-')), 'boothdeck.db'));
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });
});

describe('slow bodies where a guest waits', () => {
  it('cuts a preview trickled a byte at a time at its deadline, both ends', async () => {
    const source = trickle();
    const app = express();
    app.get(
      '/preview',
      (_req, res) => void sendCaptureFile(res, { stream: source, contentType: 'image/jpeg', contentLength: undefined }, {}, 300),
    );
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const req = http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/preview', agent: false });
    req.on('error', () => undefined);
    const [res] = (await once(req, 'response')) as [http.IncomingMessage];
    // The cut reaches the phone as an aborted response.
    res.on('error', () => undefined);
    res.resume();
    const started = performance.now();
    await new Promise((resolve) => res.on('close', resolve));
    expect(res.complete).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(source.destroyed).toBe(true);
    server.close();
  });

  it('gives up reading a thumbnail source trickled past its deadline', async () => {
    const source = trickle();
    await expect(readBounded(source, 1 << 20, undefined, 200)).rejects.toBeInstanceOf(TooSlowError);
    expect(source.destroyed).toBe(true);
  });
});

describe('the Host header is checked before authentication', () => {
  it('answers 403 host_not_allowed, not 401, on every admin route from a foreign Host', async () => {
    const { app } = await buildTestApp();
    const routes: [method: 'get' | 'post' | 'put' | 'delete', path: string][] = [
      ['get', '/api/admin/backup'],
      ['post', '/api/admin/backup'],
      ['get', '/api/admin/events'],
      ['post', '/api/admin/events'],
      ['put', '/api/admin/settings'],
      ['post', '/api/admin/system/reboot'],
      ['get', '/api/admin/hardware/diagnostic'],
      ['get', '/api/admin/session'],
      ['post', '/api/admin/session'],
      ['get', '/api/admin/no-such-route'],
    ];
    for (const [method, url] of routes) {
      const res = await request(app)[method](url).set('Host', 'rebound.example').set('Content-Type', 'application/json').send('{}');
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.code, `${method} ${url}`).toBe('host_not_allowed');
    }
  });
});
