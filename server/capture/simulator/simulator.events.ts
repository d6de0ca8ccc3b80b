import { randomUUID } from 'node:crypto';
import type { Response } from 'express';

/** The capture app's SSE broadcast: every client gets every event, and a ping each second. */
export class SimulatorEvents {
  private readonly clients = new Set<Response>();
  private readonly pingTimer: NodeJS.Timeout;

  constructor() {
    this.pingTimer = setInterval(() => this.write(`: ping - ${new Date().toISOString()}\n\n`), 1000);
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
    this.write(`id: ${randomUUID()}\nevent: ${event}\ndata: ${JSON.stringify(data)}\nretry: 10000\n\n`);
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
