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

const cookies = await Promise.all(
  Array.from({ length: sessions }, async () => {
    const res = await fetch(`${url}/api/gallery/session`);
    await res.arrayBuffer();
    return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }),
);
const times: number[] = [];
const statuses: Record<string, number> = {};
await Promise.all(
  cookies.map(async (cookie) => {
    for (let i = 0; i < requests; i++) {
      if (thinkMs > 0) await sleep(random() * thinkMs);
      const started = performance.now();
      const res = await fetch(`${url}/api/gallery/photos/${photoId}/print`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify({ copies: 1 }),
      });
      await res.arrayBuffer();
      times.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  }),
);
console.log(JSON.stringify({ times, statuses }));
