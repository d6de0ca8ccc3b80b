import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CaptureClient } from '../../server/capture/capture.client.js';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { CaptureAppError } from '../../server/core/errors.js';
import { StreamRecorder } from '../support/simulator.js';

/** A capture app gone wrong: each test installs the handler it needs. */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.writeHead(404).end();
let server: Server;
let baseUrl: string;
const hits = new Map<string, number>();

const ID = '0f1e2d3c-4b5a-4697-8877-665544332211';
const item = (id: string): Record<string, unknown> => ({
  id,
  media_type: 'image',
  created_at: '2026-11-22T13:30:05',
  processed: 'media/processed_full/20261122-143005-123456.jpg',
  show_in_gallery: true,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => hits.clear());

const client = (options: Partial<ConstructorParameters<typeof CaptureClient>[0]> = {}): CaptureClient =>
  new CaptureClient({ baseUrl, password: '0000', clock: createSystemClock(), timeoutMs: 2000, ...options });

const waitFor = async (check: () => boolean, ms = 5000): Promise<void> => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('a capture app whose stream misbehaves', () => {
  it('drops a stream that never sends a line break, and reconnects', async () => {
    const opened: ServerResponse[] = [];
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      opened.push(res);
      const timer = setInterval(() => res.write('data: ' + 'x'.repeat(16 * 1024)), 5);
      res.on('close', () => clearInterval(timer));
    };
    const recorder = new StreamRecorder();
    const sub = client({ streamSilenceMs: 60_000 }).subscribe(recorder.onEvent, recorder.onState);
    try {
      // The line cap (64 KiB) cuts it long before the silence watchdog (60 s) could.
      await waitFor(() => (hits.get('/api/sse') ?? 0) >= 2);
      expect(opened[0]?.destroyed || opened[0]?.writableEnded || opened[0]?.closed).toBe(true);
      expect(recorder.states).toContain('disconnected');
      expect(recorder.events).toEqual([]);
    } finally {
      sub.close();
    }
  });

  it('drops an event larger than the event cap, even when made of short lines', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: ' + 'y'.repeat(1000) + '\r\n'), 2);
      res.on('close', () => clearInterval(timer));
    };
    const recorder = new StreamRecorder();
    const sub = client({ streamSilenceMs: 60_000, streamLimits: { maxLineChars: 4096, maxEventChars: 20_000 } }).subscribe(
      recorder.onEvent,
      recorder.onState,
    );
    try {
      await waitFor(() => (hits.get('/api/sse') ?? 0) >= 2);
      expect(recorder.events).toEqual([]);
    } finally {
      sub.close();
    }
  });

  it('counts silence in events, not bytes: comments alone do not keep a dead link', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const timer = setInterval(() => res.write(': still here\r\n'), 20);
      res.on('close', () => clearInterval(timer));
    };
    const recorder = new StreamRecorder();
    const sub = client({ streamSilenceMs: 300 }).subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextState('disconnected');
      expect(hits.get('/api/sse')).toBe(1);
    } finally {
      sub.close();
    }
  });

  it('never follows a redirect of the stream', async () => {
    handler = (req, res) => {
      if (req.url === '/api/sse') res.writeHead(302, { Location: '/elsewhere' }).end();
      else {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('event: ping\r\ndata: "x"\r\n\r\n');
      }
    };
    const recorder = new StreamRecorder();
    const sub = client().subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextState('disconnected');
      expect(hits.get('/elsewhere')).toBeUndefined();
      expect(recorder.events).toEqual([]);
    } finally {
      sub.close();
    }
  });
});

describe('a capture app whose answers misbehave', () => {
  it('refuses a JSON answer over the size cap without buffering it whole', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
      const chunk = JSON.stringify(item(ID)) + ',';
      const timer = setInterval(() => res.write(chunk.repeat(2000)), 1);
      res.on('close', () => clearInterval(timer));
    };
    await expect(client().listMedia(0, 500)).rejects.toThrow(/larger than Boothdeck accepts/);
  });

  it('never follows a redirect of an API call', async () => {
    handler = (req, res) => {
      if (req.url?.startsWith('/api/mediacollection/')) res.writeHead(307, { Location: '/other' }).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
    };
    await expect(client().listMedia(0, 10)).rejects.toThrow(CaptureAppError);
    expect(hits.get('/other')).toBeUndefined();
  });

  it('leaves out items whose id is not a UUID', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify([item('../../etc/passwd'), item(ID), item('<img src=x>')]));
    };
    expect((await client().listMedia(0, 10)).map((i) => i.id)).toEqual([ID]);
  });

  it('refuses media served as HTML, and serves images under its own type', async () => {
    handler = (req, res) => {
      if (req.url?.includes('/preview/')) res.writeHead(200, { 'Content-Type': 'text/html' }).end('<script>alert(1)</script>');
      else res.writeHead(200, { 'Content-Type': 'IMAGE/JPEG; charset=whatever' }).end(Buffer.from([0xff, 0xd8, 0xff]));
    };
    await expect(client().openMedia('preview', ID)).rejects.toThrow(/not an image or a video/);
    const file = await client().openMedia('full', ID);
    expect(file?.contentType).toBe('image/jpeg');
    file?.stream.destroy();
  });

  it('hands up a status and a sentence of its own, never the capture app’s body', async () => {
    handler = (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Traceback secret=hunter2</h1>');
    };
    const err = (await client()
      .triggerAction('image', 0)
      .catch((e: unknown) => e)) as CaptureAppError;
    expect(err).toBeInstanceOf(CaptureAppError);
    expect(err.message).toBe('The capture app answered HTTP 500 to starting image action 0');
    expect(JSON.stringify(err.details)).not.toContain('hunter2');
  });

  it('lets a slow but steady download run past the request deadline, and cuts a stalled one', async () => {
    handler = (req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      let sent = 0;
      const stall = req.url?.includes('/thumbnail/');
      const timer = setInterval(() => {
        if (stall && sent === 2) return;
        res.write(Buffer.alloc(100, sent));
        if (++sent === 12) {
          clearInterval(timer);
          res.end();
        }
      }, 50);
      res.on('close', () => clearInterval(timer));
    };
    const slow = client({ timeoutMs: 200, fileIdleTimeoutMs: 300 });
    const file = await slow.openMedia('full', ID);
    let size = 0;
    for await (const chunk of file!.stream) size += (chunk as Buffer).length;
    expect(size).toBe(1200);

    const stalled = await slow.openMedia('thumbnail', ID);
    await expect(
      (async () => {
        for await (const chunk of stalled!.stream) void chunk;
      })(),
    ).rejects.toThrow(/stalled/);
  });
});
