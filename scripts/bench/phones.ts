import { performance } from 'node:perf_hooks';
import { PhoneConnection, type PhoneResponse } from './phone-connection.js';

/**
 * Guests' phones during an evening, in a process of their own: each holds the public gallery's
 * live stream open, refreshes the photo list now and then (every 0–`thinkMs` ms), and fetches
 * each new photo's thumbnail as its gallery shows it. Each phone leaves from an address of its
 * own on the loopback network, as on the booth's Wi-Fi, and keeps its connections and cookies
 * as a browser does. Once every stream is open it prints a JSON line (on a booth the phones are
 * connected long before; the bench's window starts there), browses for `ms`, then prints its
 * figures as another.
 *
 * On a booth the phones are other devices: here they share the cores with the stand-in, so they
 * speak HTTP/1.1 over plain sockets (phone-connection.ts), at a fraction of the CPU that Node's
 * http client takes for the same requests; what the service receives is the same.
 */
const [url, phonesArg, msArg, thinkArg, listArg] = process.argv.slice(2);
const target = new URL(url as string);
const phones = Number(phonesArg);
const ms = Number(msArg);
const thinkMs = Number(thinkArg);
/** 'streams-only': no list refresh, no thumbnails: the cost of open live streams alone. */
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
const everyConnection = new Set<PhoneConnection>();

/** A phone's browser: its cookies, and its connections to the booth, reused while the booth keeps them open. */
class Browser {
  private readonly cookies = new Map<string, string>();
  private readonly idle: PhoneConnection[] = [];

  constructor(private readonly address: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(response: PhoneResponse): void {
    for (const line of response.setCookies) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  private connection(): { c: PhoneConnection; reused: boolean } {
    for (let c = this.idle.pop(); c; c = this.idle.pop()) if (c.usable) return { c, reused: true };
    const c = new PhoneConnection(target, this.address);
    everyConnection.add(c);
    c.onClose(() => everyConnection.delete(c));
    return { c, reused: false };
  }

  /** As a browser: a kept connection the booth closed before answering is retried once on a new one. */
  async get(path: string): Promise<PhoneResponse | undefined> {
    for (;;) {
      const { c, reused } = this.connection();
      try {
        const response = await c.get(path, this.cookieHeader());
        this.keep(response);
        if (c.usable) this.idle.push(c);
        return response;
      } catch (err) {
        if (!(reused && (err as { retryable?: boolean }).retryable)) return undefined;
      }
    }
  }

  /** The live stream, on a connection of its own; `onBlock` is given each event's text. */
  stream(path: string, onOpen: () => void, onBlock: (block: string) => void): PhoneConnection {
    const c = new PhoneConnection(target, this.address);
    everyConnection.add(c);
    c.stream(
      path,
      this.cookieHeader(),
      (response) => {
        this.keep(response);
        onOpen();
      },
      onBlock,
    );
    return c;
  }
}

async function timedGet(browser: Browser, path: string): Promise<void> {
  const t0 = performance.now();
  const response = await browser.get(path);
  if (response?.status !== 200) stats.errors++;
  else if (path.startsWith('/api/gallery/photos?')) stats.listMs.push(performance.now() - t0);
}

const pause = (max: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * max));

async function phone(i: number): Promise<void> {
  const browser = new Browser(addressOf(i));
  // A stream that opens and then fails counts once.
  let counted = false;
  const markOpen = (): void => {
    if (counted) return;
    counted = true;
    streamOpen();
  };
  // The gallery's page comes first, as in a browser: the guest's session starts there.
  if (browsing) await timedGet(browser, '/api/gallery/photos?limit=24');
  const stream = browser.stream('/api/gallery/stream', markOpen, (block) => {
    stats.events++;
    if (!browsing || !block.includes('event: photo-added')) return;
    const data = /^data: (.*)$/m.exec(block)?.[1];
    const thumb = data ? (JSON.parse(data) as { urls?: { thumb?: string } }).urls?.thumb : undefined;
    // The gallery draws the new tile within a second or so.
    if (thumb) void pause(1000).then(() => timedGet(browser, thumb).then(() => stats.thumbs++));
  });
  stream.onClose(markOpen);
  await opened;
  await pause(thinkMs);
  while (browsing && performance.now() < end) {
    await timedGet(browser, '/api/gallery/photos?limit=24');
    stats.lists++;
    // A pause never outlasts the evening: the bench's next round waits for this process to end.
    await pause(Math.min(thinkMs, Math.max(0, end - performance.now())));
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, end - performance.now())));
}

const all = Promise.all(Array.from({ length: phones }, (_, i) => phone(i)));
await opened;
end = performance.now() + ms;
console.log(JSON.stringify({ connected }));
await all;
for (const c of everyConnection) c.destroy();
console.log(JSON.stringify(stats));
