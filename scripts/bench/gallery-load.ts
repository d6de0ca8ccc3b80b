import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface LoadResult {
  latencies: number[];
  errors: number;
}

export interface LoadOptions {
  clients: number;
  ms: number;
  /** Each client pauses a random 0..thinkMs between answers (a guest scrolling); 0: back to back. */
  thinkMs: number;
}

/**
 * Phones asking for the public photo list at once, from another process (the load must not
 * share the service's event loop), each on its own keep-alive connection, for `ms`.
 */
export async function galleryLoad(url: string, options: LoadOptions): Promise<LoadResult> {
  const script = `const http = require('node:http');
    const [url, clients, ms, think] = [process.argv[1], ...process.argv.slice(2).map(Number)];
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    const latencies = []; let errors = 0; const end = performance.now() + ms;
    const one = () => new Promise((resolve) => {
      const t0 = performance.now();
      http.get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => { if (res.statusCode === 200) latencies.push(performance.now() - t0); else errors++; resolve(); });
      }).on('error', () => { errors++; resolve(); });
    });
    const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * think));
    const client = async () => { await pause(); while (performance.now() < end) { await one(); if (think) await pause(); } };
    Promise.all(Array.from({ length: clients }, client)).then(() => {
      process.stdout.write(JSON.stringify({ latencies, errors }));
      agent.destroy();
    });`;
  const child = spawn(process.execPath, ['-e', script, url, String(options.clients), String(options.ms), String(options.thinkMs)]);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  await once(child, 'exit');
  return JSON.parse(output) as LoadResult;
}
