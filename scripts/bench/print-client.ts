import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * The guests' phones for the print bench, in a process of their own so that the load they
 * generate does not share the service's event loop. Prints one JSON line: times and counts.
 */
const [url, photoId, sessionsArg, requestsArg, thinkArg] = process.argv.slice(2);
const sessions = Number(sessionsArg);
const requests = Number(requestsArg);
/** Longest pause of a guest between two taps, in ms; 0 sends every request at once. */
const thinkMs = Number(thinkArg);
let seed = 42;
/** A fixed sequence, so that two runs pace the guests the same way. */
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each guest is a phone of its own: its requests leave from an address of its own on the
 * loopback network (127.0.1.x), as each phone has its own address on the booth's Wi-Fi, where
 * the quota per address counts.
 */
const addressOf = (guest: number): string => `127.0.${1 + Math.floor(guest / 250)}.${1 + (guest % 250)}`;
const agents = Array.from({ length: sessions }, (_, i) => new http.Agent({ keepAlive: true, localAddress: addressOf(i) }));

function send(
  guest: number,
  method: 'GET' | 'POST',
  path: string,
  cookie: string,
  body?: string,
): Promise<{ status: number; cookie: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
    if (body !== undefined)
      Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
    const req = http.request(`${url}${path}`, { method, headers, agent: agents[guest] }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: (res.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '' }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const cookies = await Promise.all(
  Array.from({ length: sessions }, async (_, i) => (await send(i, 'GET', '/api/gallery/session', '')).cookie),
);
const times: number[] = [];
const statuses: Record<string, number> = {};
await Promise.all(
  cookies.map(async (cookie, guest) => {
    for (let i = 0; i < requests; i++) {
      if (thinkMs > 0) await sleep(random() * thinkMs);
      const started = performance.now();
      const res = await send(guest, 'POST', `/api/gallery/photos/${photoId}/print`, cookie, JSON.stringify({ copies: 1 }));
      times.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  }),
);
for (const agent of agents) agent.destroy();
console.log(JSON.stringify({ times, statuses }));
