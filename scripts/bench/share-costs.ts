import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchScript, cpuOf } from './cpu.js';
import { galleryLoad } from './gallery-load.js';
import type { RecordFn } from './print.js';
import { round } from './seed.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

/** The event the evening starts with: camera-sized photos, which the export reads. */
export const CAMERA_PHOTOS = 300;
export const PHONES = 200;
/** At rest the service is measured this long: CPU time comes in 10 ms ticks. */
const REST_MS = 120_000;
const STREAMS_MS = 60_000;

export const thumbnailsIn = (data: string): number => {
  const dir = path.join(data, 'thumbnails');
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
};

/** Waits until the service and its children have used under 1 % of a core for two seconds. */
export async function settle(pid: number, limitMs = 180_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  let before = cpuOf(pid).total;
  while (performance.now() < deadline) {
    await sleep(2000);
    const now = cpuOf(pid).total;
    if (now - before < 20) return;
    before = now;
  }
}

/** CPU (ms) the service and its children used while `work` ran. */
export async function cpuDuring<T>(pid: number, work: () => Promise<T>): Promise<{ ms: number; main: number; result: T }> {
  const before = cpuOf(pid);
  const result = await work();
  const after = cpuOf(pid);
  return { ms: after.total - before.total, main: after.main - before.main, result };
}

/**
 * The built service on the seeded event, in a process of its own: what a start costs per photo
 * indexed (a start without photos taken off), then per thumbnail its workers made.
 */
export async function startAndIndex(
  record: RecordFn,
  dirs: { capture: string; data: string; empty: string; emptyCapture: string },
  captureUrl: string,
): Promise<ServiceProcess> {
  const { capture, data, empty, emptyCapture } = dirs;
  // What a start costs without photos, then with the event to index.
  const bare = await startServiceProcess(empty, emptyCapture, 0);
  await settle(bare.pid);
  const bareCpu = cpuOf(bare.pid).main;
  await bare.stop();
  const service = await startServiceProcess(data, capture, CAMERA_PHOTOS, { captureUrl });
  const indexCpu = cpuOf(service.pid).main;
  record(
    'CPU per indexed photo (service process, start without photos taken off)',
    `${round((indexCpu - bareCpu) / CAMERA_PHOTOS, 2)} ms`,
    'printed only',
    true,
  );
  // Every thumbnail made (the workers run only on what the machine leaves idle), then quiet.
  for (const deadline = performance.now() + 600_000; thumbnailsIn(data) < CAMERA_PHOTOS && performance.now() < deadline;) await sleep(500);
  await settle(service.pid);
  const thumbs = thumbnailsIn(data);
  const made = cpuOf(service.pid);
  record(
    'CPU per thumbnail of a 12 MP photo (background workers)',
    `${round(made.children / Math.max(1, thumbs), 1)} ms (${thumbs} thumbnails, ${round(made.children / 1000, 1)} s in worker processes)`,
    'printed only',
    true,
  );

  return service;
}

/** What Boothdeck costs at rest, per minute of open live streams, per list and per thumbnail request. */
export async function unitCosts(record: RecordFn, service: ServiceProcess): Promise<void> {
  // At rest: no guest, no photo, the capture app connected (its pings each second).
  await sleep(35_000); // idle workers leave after 30 s
  const rest = await cpuDuring(service.pid, () => sleep(REST_MS));
  const restPerMinute = (rest.ms * 60_000) / REST_MS;
  record(
    "CPU per minute at rest (service and its children; the capture app's pings each second included)",
    `${round(restPerMinute)} ms (${round(restPerMinute / 600, 2)} % of one core, over ${REST_MS / 60_000} min)`,
    '< 180 ms (0.3 %)',
    restPerMinute < 180,
  );

  // Live streams: what opening them costs, then what they cost once open.
  const phones = benchScript('phones.ts', [service.url, String(PHONES), String(STREAMS_MS), '0', 'streams-only']);
  const opening = await cpuDuring(service.pid, () => phones.lines.next());
  const open = await cpuDuring(service.pid, () => once(phones.child, 'exit'));
  record(
    `CPU per minute of ${PHONES} open live streams`,
    `${round((open.ms * 60_000) / STREAMS_MS - restPerMinute)} ms beyond rest (opening them: ${round(opening.ms)} ms, ${round(opening.ms / PHONES, 2)} ms each)`,
    'printed only',
    true,
  );
  const lists = await cpuDuring(service.pid, () =>
    galleryLoad(`${service.url}/api/gallery/photos?limit=24`, { clients: 20, ms: 5000, thinkMs: 0 }),
  );
  record(
    'CPU per 100 guest list requests (24 photos each)',
    `${round((lists.main / lists.result.latencies.length) * 100, 1)} ms over ${lists.result.latencies.length} requests`,
    'printed only',
    true,
  );
  // The newest photo's thumbnail, as 200 phones ask for it once it is made (from memory, one write each).
  const page = (await (await fetch(`${service.url}/api/gallery/photos?limit=1`)).json()) as { photos: { urls: { thumb: string } }[] };
  const thumb = page.photos[0]?.urls.thumb;
  if (thumb) {
    await (await fetch(`${service.url}${thumb}`)).arrayBuffer();
    const thumbs = await cpuDuring(service.pid, () => galleryLoad(`${service.url}${thumb}`, { clients: 20, ms: 5000, thinkMs: 0 }));
    record(
      'CPU per 100 thumbnail requests (a 12 MP photo’s, kept in memory)',
      `${round((thumbs.main / thumbs.result.latencies.length) * 100, 1)} ms over ${thumbs.result.latencies.length} requests`,
      'printed only',
      true,
    );
  }
}
