import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_EXPORTS, MAX_PROGRESS_TOKENS } from '../../server/events/event-export.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp;
let server: http.Server;
beforeEach(async () => {
  t = await startSimApp();
  server = http.createServer(t.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await t.close();
});

/** An event whose ZIP is far larger than what the kernel's buffers hold: a reader that stops keeps it running. */
async function bigEvent(): Promise<void> {
  expect((await request(t.app).post('/api/admin/events').set('Cookie', t.cookie).send({ name: 'Gala' })).status).toBe(201);
  const items = [];
  for (let i = 0; i < 3; i++) items.push(await t.sim.capture(`p${i}`));
  await t.services.indexer.rescan();
  for (const item of items) writeFileSync(path.join(t.sim.dataDir, item.processed), randomBytes(8 * 1024 * 1024));
}

interface Answer {
  status: number;
  body: string;
  /** For a ZIP under way: the client's request, to let it go. */
  req: http.ClientRequest;
}

/** Asks for the ZIP and reads its headers; a ZIP's body is left unread, as a script that stalls. */
function ask(token: string): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.get(
      { port, host: '127.0.0.1', path: `/api/admin/events/gala/export.zip?progress=${token}`, headers: { Cookie: t.cookie } },
      (res) => {
        if (res.statusCode === 200) {
          res.pause();
          resolve({ status: 200, body: '', req });
          return;
        }
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), req }));
      },
    );
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

describe('ZIP exports at once', () => {
  it('runs twenty asked together two at a time, and tells the others in a sentence to wait', async () => {
    await bigEvent();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(`tok-${String(i).padStart(8, '0')}`)));
    const running = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(running).toHaveLength(MAX_EXPORTS);
    expect(refused).toHaveLength(20 - MAX_EXPORTS);
    for (const a of refused) {
      const error = (JSON.parse(a.body) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('exports_busy');
      expect(error.message).toBe('Two ZIP exports are already running on this booth: try again when one of them has finished');
    }
    // The console, which started its download with a plain link, reads the refusal under its token.
    const i = answers.findIndex((a) => a.status === 429);
    const progress = await request(t.app)
      .get(`/api/admin/events/gala/export/progress/tok-${String(i).padStart(8, '0')}`)
      .set('Cookie', t.cookie);
    expect(progress.body.state).toBe('busy');

    // Once one running download goes away, its place is free again.
    running[0]!.req.destroy();
    await vi.waitFor(async () => expect((await ask('tok-again001')).status).toBe(200));
  });

  it('never counts a HEAD: it exports nothing', async () => {
    await bigEvent();
    const running = await Promise.all([ask('tok-head0001'), ask('tok-head0002')]);
    expect(running.map((a) => a.status)).toEqual([200, 200]);
    expect((await request(t.app).head('/api/admin/events/gala/export.zip').set('Cookie', t.cookie)).status).toBe(200);
    expect((await ask('tok-head0003')).status).toBe(429);
  });

  it('takes no place for an export asked behind a live stream on the same connection', async () => {
    await bigEvent();
    const { port } = server.address() as AddressInfo;
    const exportRequest = `GET /api/admin/events/gala/export.zip HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${t.cookie}\r\n\r\n`;
    /** Two requests in one write (HTTP/1.1 pipelining); what comes back, as text. */
    const pipelined = async (first: string): Promise<{ socket: net.Socket; heard: () => string }> => {
      const socket = net.connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.write(`GET ${first} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n${exportRequest}`);
      return { socket, heard: () => text };
    };
    // Two connections whose exports wait behind the gallery's live stream, which never ends.
    const queued = await Promise.all([pipelined('/api/gallery/stream'), pipelined('/api/gallery/stream')]);
    try {
      for (const q of queued) await vi.waitFor(() => expect(q.heard()).toContain('text/event-stream'));
      const running = await Promise.all([ask('tok-turn0001'), ask('tok-turn0002')]);
      expect(running.map((a) => a.status)).toEqual([200, 200]);
      for (const a of running) a.req.destroy();
      // Behind an answer that ends, the export runs when its turn comes.
      const after = await pipelined('/healthz');
      await vi.waitFor(() => expect(after.heard()).toContain('Content-Type: application/zip'));
      after.socket.destroy();
    } finally {
      for (const q of queued) q.socket.destroy();
    }
  });

  it('keeps the progress of a bounded number of tokens, however many refusals a script asks for', async () => {
    await bigEvent();
    const running = await Promise.all([ask('tok-many0001'), ask('tok-many0002')]);
    const exports = t.services.exports;
    const refuse = (token: string) => expect(() => exports.claim(token)).toThrow(/already running/);
    for (let i = 0; i < MAX_PROGRESS_TOKENS * 4; i++) refuse(`tok-${String(i).padStart(8, '0')}`);
    expect(exports.progressOf('tok-00000000')).toBeUndefined();
    expect(exports.progressOf(`tok-${String(MAX_PROGRESS_TOKENS * 4 - 1).padStart(8, '0')}`)?.state).toBe('busy');
    // The exports under way are never forgotten: their console is watching them.
    expect(exports.progressOf('tok-many0001')?.state).toBe('running');
    expect(exports.progressOf('tok-many0002')?.state).toBe('running');
    for (const a of running) a.req.destroy();
  });
});
