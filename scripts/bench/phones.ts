import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Guests' phones during an evening, in a process of their own: each holds the public gallery's
 * live stream open, refreshes the photo list now and then (every 0–`thinkMs` ms), and fetches
 * each new photo's thumbnail as its gallery shows it. Each phone leaves from an address of its
 * own on the loopback network, as on the booth's Wi-Fi. Once every stream is open it prints a JSON
 * line (on a booth the phones are connected long before; the bench's window starts there), browses
 * for `ms`, then prints its figures as another.
 */
const [url, phonesArg, msArg, thinkArg, listArg] = process.argv.slice(2);
const phones = Number(phonesArg);
const ms = Number(msArg);
const thinkMs = Number(thinkArg);
/** 0: streams only (no list refresh, no thumbnails): the cost of open live streams alone. */
const browsing = listArg !== 'streams-only';
const addressOf = (phone: number): string => `127.0.${1 + Math.floor(phone / 250)}.${1 + (phone % 250)}`;
const stats = { lists: 0, thumbs: 0, errors: 0, events: 0, listMs: [] as number[] };
let end = Number.POSITIVE_INFINITY;
let connected = 0;
let allConnected: () => void = () => undefined;
const opened = new Promise<void>((resolve) => (allConnected = resolve));
const streamOpen = (): void => {
  if (++connected === phones) allConnected();
};
const requests = new Set<http.ClientRequest>();

/** A phone's cookies, kept as its browser keeps them: the guest session is made once, not per request. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(res: http.IncomingMessage): void {
    for (const line of res.headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  headers(): http.OutgoingHttpHeaders {
    return this.cookies.size ? { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }
}

function get(agent: http.Agent, jar: CookieJar, path: string): Promise<void> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get(`${url}${path}`, { agent, headers: jar.headers() }, (res) => {
      jar.keep(res);
      res.resume();
      res.on('end', () => {
        requests.delete(req);
        if (res.statusCode !== 200) stats.errors++;
        else if (path.startsWith('/api/gallery/photos?')) stats.listMs.push(performance.now() - t0);
        resolve();
      });
    });
    requests.add(req);
    req.on('error', () => {
      stats.errors++;
      resolve();
    });
  });
}

const pause = (max: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * max));

async function phone(i: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, localAddress: addressOf(i) });
  const jar = new CookieJar();
  // A stream that opens and then fails counts once.
  let counted = false;
  const markOpen = (): void => {
    if (counted) return;
    counted = true;
    streamOpen();
  };
  // The gallery's page comes first, as in a browser: the guest's session starts there.
  if (browsing) await get(agent, jar, '/api/gallery/photos?limit=24');
  const stream = http.get(
    `${url}/api/gallery/stream`,
    { agent: new http.Agent({ localAddress: addressOf(i) }), headers: jar.headers() },
    (res) => {
      jar.keep(res);
      streamOpen();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          stats.events++;
          if (!browsing || !block.includes('event: photo-added')) continue;
          const data = /^data: (.*)$/m.exec(block)?.[1];
          const thumb = data ? (JSON.parse(data) as { urls?: { thumb?: string } }).urls?.thumb : undefined;
          // The gallery draws the new tile within a second or so.
          if (thumb) void pause(1000).then(() => get(agent, jar, thumb).then(() => stats.thumbs++));
        }
      });
    },
  );
  stream.on('error', markOpen);
  await opened;
  await pause(thinkMs);
  while (browsing && performance.now() < end) {
    await get(agent, jar, '/api/gallery/photos?limit=24');
    stats.lists++;
    await pause(thinkMs);
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, end - performance.now())));
  stream.destroy();
  agent.destroy();
}

const all = Promise.all(Array.from({ length: phones }, (_, i) => phone(i)));
await opened;
end = performance.now() + ms;
console.log(JSON.stringify({ connected }));
await all;
for (const req of requests) req.destroy();
console.log(JSON.stringify(stats));
