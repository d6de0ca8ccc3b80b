import { existsSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CaptureClient } from '../server/capture/capture.client.js';
import { createSystemClock } from '../server/core/clock/clock.system.js';
import { localDay } from '../common/dates.js';
import { percentile, round, seedCaptureFolder } from './bench/seed.js';
import { adminCookie, firstRescan, seedEvents, startBenchService, tempDir } from './bench/setup.js';
import { zipExport } from './bench/export.js';
import { exportFlood } from './bench/export-flood.js';
import { firstVisitAfterIndex } from './bench/first-visit.js';
import { relayTiming, ringUnderLoad } from './bench/hardware.js';
import { relayOffAfterDeath } from './bench/relay-off.js';
import { hostileThumbnails, relayFlood } from './bench/hardening.js';
import { galleryLoad } from './bench/gallery-load.js';
import { printQueueing } from './bench/print.js';
import { DESKTOP, PHONE, describeScreen, firstScreen, warmFirstScreen } from './bench/gallery.js';
import { startServiceProcess } from './bench/service-process.js';
import { launchBenchBrowser } from './bench/browser.js';
import { publishThroughput } from './bench/publish.js';
import { publishPageWeight } from './bench/publish-page.js';
import { shareOfTheBoard } from './bench/share.js';

interface Row {
  measure: string;
  value: string;
  target: string;
  ok: boolean;
}
const rows: Row[] = [];
const record = (measure: string, value: string, target: string, ok: boolean): void => {
  rows.push({ measure, value, target, ok });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${measure}: ${value} (target ${target})`);
};
const cleanups: string[] = [];

const executablePath = process.env.BOOTHDECK_CHROMIUM ?? '/usr/bin/chromium';
const launchBrowser = () => launchBenchBrowser(executablePath);

/**
 * The public gallery's first screen, with the service in its own process as on a booth: a first
 * visit right after it indexed the 20,000 photos, then, after a restart with nothing changed,
 * visits with the server warm.
 */
async function galleryFirstScreens(capture: string, start: number, count: number): Promise<void> {
  if (!existsSync(executablePath)) {
    record('public gallery first screen', 'skipped: no Chromium (run npm run test:deps)', '< 500 ms', false);
    return;
  }
  const data = tempDir('gallery-data');
  cleanups.push(data);
  seedEvents(data, 20, start);
  const screens = [
    ['phone 390×844', PHONE],
    ['1280×800', DESKTOP],
  ] as const;
  const browser = await launchBrowser();
  let service = await startServiceProcess(data, capture, count);
  try {
    // A guest on a phone, then one at a desktop, each in a new browser, right after the index.
    for (const [name, viewport] of screens) {
      const s = await firstScreen(browser, `${service.url}/`, viewport);
      record(`public gallery first screen, first visit after a fresh index, ${name}`, describeScreen(s), '< 1000 ms', s.ms < 1000);
    }
    await service.stop();
    service = await startServiceProcess(data, capture, count);
    for (const [name, viewport] of screens) {
      await firstScreen(browser, `${service.url}/`, viewport);
      const w = await warmFirstScreen(browser, `${service.url}/`, viewport);
      record(
        `public gallery first screen, warm, ${name} (median of 5 new browser contexts)`,
        `median ${round(w.median)} ms, worst ${round(w.worst)} ms; last: ${describeScreen(w.sample)}`,
        '< 500 ms',
        w.median < 500,
      );
    }
  } finally {
    await service.stop();
    await browser.close();
  }
}

/** The whole start (service up and the rescan that finds nothing changed) with 100,000 photos. */
async function bigStart(): Promise<void> {
  const capture = tempDir('big-capture');
  const data = tempDir('big-data');
  cleanups.push(capture, data);
  console.log('Seeding 100,000 photos over 20 days…');
  const { start } = await seedCaptureFolder(capture, 100_000, 20);
  seedEvents(data, 20, start);
  let handle = await startBenchService(data, capture);
  const cold = await firstRescan(handle);
  console.log(`      cold index of 100,000 files: ${round(cold.ms / 1000)} s (${cold.added} added)`);
  await handle.services.thumbnailQueue.stop();
  await handle.stop();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    handle = await startBenchService(data, capture);
    const warm = await firstRescan(handle);
    times.push(performance.now() - t0);
    if (warm.added !== 0) throw new Error('a restart with nothing changed added photos');
    await handle.stop();
  }
  const best = Math.min(...times);
  record(
    'whole start with 100,000 photos, nothing changed (service up + rescan)',
    `best ${round(best / 1000, 3)} s, median ${round(percentile(times, 50) / 1000, 3)} s of 3`,
    '< 2 s',
    percentile(times, 50) < 2000,
  );
}

/** 20,000 photos in 20 events: cold index, warm restart, and gallery queries. */
async function indexAndQueries(): Promise<void> {
  const capture = tempDir('capture');
  const data = tempDir('data');
  cleanups.push(capture, data);
  console.log('Seeding 20,000 photos over 20 days, the newest 400 camera-sized…');
  // The newest 400 (what guests' galleries open on) camera-sized, 4000×3000.
  const { photos, start } = await seedCaptureFolder(capture, 20_000, 20, undefined, 400);
  seedEvents(data, 20, start);

  let handle = await startBenchService(data, capture);
  const cold = await firstRescan(handle);
  record(
    'cold index of 20,000 files',
    `${round(cold.ms / 1000)} s (${cold.added} added)`,
    '< 20 s',
    cold.ms < 20_000 && cold.added === 20_000,
  );
  await handle.stop();
  await galleryFirstScreens(capture, start, photos.length);

  const restartStarted = performance.now();
  handle = await startBenchService(data, capture);
  const warm = await firstRescan(handle);
  const restartMs = performance.now() - restartStarted;
  record(
    'restart with nothing changed',
    `rescan ${round(warm.ms / 1000, 3)} s, whole start ${round(restartMs / 1000, 3)} s (${warm.unchanged} unchanged, ${warm.added} added)`,
    '< 2 s',
    warm.ms < 2000 && warm.added === 0,
  );

  const repo = handle.services.photoRepository;
  photos.forEach((p, i) => i % 10 === 0 && repo.setPrinted(p.item.id, 1 + (i % 3)));
  const slugs = Array.from({ length: 20 }, (_, i) => `evenement-${i + 1}`);
  const day = (offset: number): string => localDay(new Date(start + offset * 86_400_000));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
  const filters = () => {
    const from = Math.floor(Math.random() * 18);
    return {
      event: pick([undefined, ...slugs]),
      from: pick([undefined, day(from)]),
      to: pick([undefined, day(from + 1 + Math.floor(Math.random() * 3))]),
      status: pick(['all', 'printed', 'not_printed'] as const),
    };
  };
  const serviceTimes: number[] = [];
  const httpTimes: number[] = [];
  const cookie = await adminCookie(handle.localUrl);
  for (let i = 0; i < 1200; i++) {
    const f = filters();
    const t0 = performance.now();
    const page = handle.services.photos.listAdmin({
      ...f,
      from: f.from ? Date.parse(`${f.from}T00:00:00`) : undefined,
      to: f.to ? Date.parse(`${f.to}T23:59:59.999`) : undefined,
      limit: 60,
    });
    const t1 = performance.now();
    if (page.next_cursor && i % 2 === 0)
      handle.services.photos.listAdmin({ ...f, from: undefined, to: undefined, cursor: page.next_cursor, limit: 60 });
    if (i >= 200) serviceTimes.push(t1 - t0);
    const query = new URLSearchParams({ limit: '60' });
    Object.entries(f).forEach(([k, v]) => v && v !== 'all' && query.set(k, v));
    const h0 = performance.now();
    const res = await fetch(`${handle.localUrl}/api/admin/photos?${query.toString()}`, { headers: { Cookie: cookie } });
    await res.arrayBuffer();
    if (i >= 200) httpTimes.push(performance.now() - h0);
  }
  record(
    'admin gallery page of 60, any filters (in-process)',
    `p50 ${round(percentile(serviceTimes, 50))} ms, p95 ${round(percentile(serviceTimes, 95))} ms, p99 ${round(percentile(serviceTimes, 99))} ms`,
    'p95 < 10 ms',
    percentile(serviceTimes, 95) < 10,
  );
  console.log(`      same over HTTP on loopback: p50 ${round(percentile(httpTimes, 50))} ms, p95 ${round(percentile(httpTimes, 95))} ms`);
  await handle.stop();
}

/** From the capture app's DbInsert to the photo's tile in an open public gallery page. */
async function liveArrival(): Promise<void> {
  const data = tempDir('live');
  cleanups.push(data);
  const handle = await startBenchService(data, `${data}/capture`);
  handle.services.events.create({ name: 'Bench live' });
  if (!existsSync(executablePath)) {
    record('new photo reaches an open public gallery', 'skipped: no Chromium (run npm run test:deps)', '< 1 s', false);
    await handle.stop();
    return;
  }
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${handle.localUrl}/`);
  await page.getByTestId('gallery-live').waitFor();

  const announced = new Map<string, number>();
  const observer = new CaptureClient({ baseUrl: handle.captureUrl, password: '0000', clock: createSystemClock() });
  const sub = observer.subscribe((e) => {
    const id = (e.data as { id?: string }).id;
    if (e.event === 'DbInsert' && id) announced.set(id, performance.now());
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const delays: number[] = [];
  for (let i = 0; i < 15; i++) {
    const item = await handle.simulator!.capture(`live ${i}`);
    await page.locator(`[data-testid="photo-tile"][data-photo-id="${item.id}"] img`).waitFor({ timeout: 5000 });
    const shown = performance.now();
    delays.push(shown - (announced.get(item.id) ?? shown));
  }
  sub.close();
  await browser.close();
  record(
    'new photo reaches an open public gallery page',
    `p50 ${round(percentile(delays, 50))} ms, max ${round(Math.max(...delays))} ms over ${delays.length} photos`,
    '< 1000 ms',
    Math.max(...delays) < 1000,
  );
  await handle.stop();
}

/** 200 phones refreshing the public gallery at once while the booth keeps taking photos. */
async function publicListUnderLoad(): Promise<void> {
  const capture = tempDir('load-capture');
  const data = tempDir('load-data');
  cleanups.push(capture, data);
  const { start } = await seedCaptureFolder(capture, 2000, 1);
  seedEvents(data, 1, start);
  const handle = await startBenchService(data, capture);
  await firstRescan(handle);
  let arrived = 0;
  let arriving = true;
  const arrivals = (async () => {
    while (arriving) {
      await handle.simulator!.capture(`load ${arrived}`);
      arrived++;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const clients = 200;
  const url = `${handle.localUrl}/api/gallery/photos`;
  // 200 phones, each asking again 0 to 2 s after its last answer (about 200 requests a second).
  const phones = await galleryLoad(url, { clients, ms: 10_000, thinkMs: 2000 });
  // The same 200 asking back to back: what the booth can take at most (the load shares its CPU).
  const flood = await galleryLoad(url, { clients, ms: 5000, thinkMs: 0 });
  arriving = false;
  await arrivals;
  const p95 = percentile(phones.latencies, 95);
  record(
    `public photo list, ${clients} phones refreshing while photos arrive`,
    `p50 ${round(percentile(phones.latencies, 50))} ms, p95 ${round(p95)} ms, p99 ${round(percentile(phones.latencies, 99))} ms over ${phones.latencies.length} requests (${phones.errors} errors, ${arrived} photos arrived)`,
    'p95 < 50 ms',
    p95 < 50 && phones.errors === 0,
  );
  console.log(
    `      the same ${clients} back to back (saturation): ${round(flood.latencies.length / 5)} req/s, p50 ${round(percentile(flood.latencies, 50))} ms, p95 ${round(percentile(flood.latencies, 95))} ms, ${flood.errors} errors`,
  );
  await handle.stop();
}

async function main(): Promise<void> {
  console.log(`Boothdeck bench on ${process.platform}/${process.arch}, Node ${process.version}\n`);
  if (process.env.BOOTHDECK_BACKGROUND_PRIORITY === 'normal') {
    console.log('Note: BOOTHDECK_BACKGROUND_PRIORITY=normal: background work runs at normal priority, not as on a booth.\n');
  }
  // `npm run bench -- index live` runs only the sections named.
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const sections: [string, () => Promise<void>][] = [
    ['index', indexAndQueries],
    ['load', publicListUnderLoad],
    ['live', liveArrival],
    ['zip', () => zipExport(record, cleanups)],
    ['zipflood', () => exportFlood(record, cleanups)],
    ['firstvisit', () => firstVisitAfterIndex(record, cleanups, launchBrowser)],
    ['print', () => printQueueing(record, cleanups)],
    ['relay', () => relayTiming(record)],
    ['relayoff', () => relayOffAfterDeath(record, cleanups)],
    ['relayflood', () => relayFlood(record)],
    ['hostilethumbs', () => hostileThumbnails(record)],
    ['ring', () => ringUnderLoad(record, cleanups)],
    ['start100k', bigStart],
    [
      'publish',
      async () => {
        await publishPageWeight(record, cleanups, executablePath);
        await publishThroughput(record, cleanups);
      },
    ],
    // The page's weight alone, without the camera photos' upload; and the upload alone.
    ['publish-page', () => publishPageWeight(record, cleanups, executablePath)],
    ['publish-upload', () => publishThroughput(record, cleanups)],
    ['share', () => shareOfTheBoard(record, cleanups, launchBrowser, existsSync(executablePath))],
  ];
  try {
    // --only-load: the gallery load measure alone, to work on it.
    const wanted = process.argv.includes('--only-load') ? ['load'] : only;
    for (const [name, run] of sections) if (wanted.length === 0 || wanted.includes(name)) await run();
  } finally {
    cleanups.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  }
  console.log('\nSummary');
  console.table(rows.map((r) => ({ measure: r.measure, value: r.value, target: r.target, result: r.ok ? 'PASS' : 'FAIL' })));
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
