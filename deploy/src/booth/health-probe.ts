import http from 'node:http';
import type { HealthProbe } from '../rules/unit-state.js';
import { parseHealth } from '../rules/health.js';

const MAX_BODY = 64 * 1024;

/**
 * How long one look may take and still count as an answer once the new release runs (its start,
 * the watch window, an undo): its first minute under the unit is the busiest (the index, the
 * kiosk), and a release that answers slowly is alive, not dead to be rolled back. The guard keeps
 * probeHealth's 3 s: there a slow answer defers, which is the safe side.
 */
export const ALIVE_PROBE_MS = 10_000;

/** One look at `/healthz` on a loopback port: an answer within the time limit, or why not. */
export function probeHealth(port: number, timeoutMs = 3000): Promise<HealthProbe> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (probe: HealthProbe): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(probe);
    };
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', headers: { accept: 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) return done({ kind: 'not-boothdeck' });
        chunks.push(chunk);
      });
      res.on('end', () => {
        const status = res.statusCode === 200 ? parseHealth(Buffer.concat(chunks).toString('utf8')) : undefined;
        done(status ? { kind: 'answer', status } : { kind: 'not-boothdeck' });
      });
      res.on('error', (err) => done({ kind: 'error', message: err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ECONNREFUSED' ? { kind: 'nothing-listens' } : { kind: 'error', message: err.code ?? err.message }),
    );
    const timer = setTimeout(() => done({ kind: 'timeout', afterMs: timeoutMs }), timeoutMs);
  });
}

/** Whether anything listens on a loopback port (for the trial's spare port). */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      res.resume();
      req.destroy();
      resolve(true);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'ECONNREFUSED'));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(true);
    });
  });
}
