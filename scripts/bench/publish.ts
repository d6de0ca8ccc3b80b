import { execFile } from 'node:child_process';
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { createBackgroundMedia } from '../../server/media/background-resize.js';
import { PREVIEW_OPTIONS } from '../../server/publish/publish-previews.js';
import type { PublishOverview } from '../../server/contract/publish.contract.js';
import { startWebdav, writeDavConfig } from '../../test/support/rclone.js';
import type { RecordFn } from './print.js';
import { cameraJpeg, percentile, round, seedCaptureFolder } from './seed.js';
import { startServiceProcess } from './service-process.js';
import { adminCookie, seedEvents, tempDir } from './setup.js';

const run = promisify(execFile);
const PHOTOS = Number(process.env.BOOTHDECK_BENCH_PUBLISH_PHOTOS ?? 300);
const ROUNDS = Number(process.env.BOOTHDECK_BENCH_PUBLISH_ROUNDS ?? 3);
/** Camera photos that differ from one another (each file is one of them): sharp's grain is drawn anew each time. */
const DISTINCT = 12;
const POLL_MS = 50;

const folderBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);

async function api<T>(url: string, cookie: string, method = 'GET', body?: object): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { Cookie: cookie, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Polls the console's own overview until the event reads « En ligne » at its new place, then until the queue is at rest. */
async function untilOnline(url: string, cookie: string, t0: number): Promise<{ onlineMs: number; idleMs: number }> {
  let onlineMs: number | undefined;
  for (;;) {
    const o = await api<PublishOverview>(`${url}/api/admin/publish`, cookie);
    const event = o.events[0];
    if (onlineMs === undefined && event?.state === 'online' && event.photos_online === PHOTOS) onlineMs = performance.now() - t0;
    if (onlineMs !== undefined && o.status.state === 'idle' && o.leftovers.length === 0)
      return { onlineMs, idleMs: performance.now() - t0 };
    if (o.status.last_error) throw new Error(`publishing failed: ${o.status.last_error.reason}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

interface Round {
  plain: number;
  made: number;
  madeIdle: number;
  nothing: number;
  making: number;
}

const spread = (values: number[]): string =>
  `median ${round(percentile(values, 50) / 1000, 1)} s (${round(Math.min(...values) / 1000, 1)}–${round(Math.max(...values) / 1000, 1)})`;
const pct = (values: number[]): string =>
  `median ${Math.round(percentile(values, 50) * 100)} % (rounds ${values.map((v) => Math.round(v * 100)).join(', ')} %)`;

/**
 * A camera's photos (4000×3000 JPEGs of about 3.9 MB) published by the built service, in its own
 * process as on a booth, to `rclone serve webdav` on loopback, against a plain `rclone copy` of the
 * same files to the same server (at the same nice 19 as the queue's rclone). Each round, in an
 * order that turns: the previews' making alone (the same background workers, two at a time), a
 * move of the event to a new folder with its previews kept ("made"), one after the previews
 * folder was emptied ("from nothing"), and the plain copy.
 */
export async function publishThroughput(record: RecordFn, cleanups: string[]): Promise<void> {
  const capture = tempDir('publish-capture');
  const data = tempDir('publish-data');
  const served = tempDir('publish-served');
  cleanups.push(capture, data, served);
  console.log(`Seeding ${PHOTOS} camera-sized photos for the publish bench…`);
  const { photos, start } = await seedCaptureFolder(capture, PHOTOS, 1);
  const variants = await Promise.all(Array.from({ length: DISTINCT }, () => cameraJpeg()));
  for (const [i, p] of photos.entries()) {
    const file = path.join(capture, p.item.processed);
    writeFileSync(file, variants[i % DISTINCT] as Buffer);
    utimesSync(file, new Date(p.takenAt), new Date(p.takenAt));
  }
  const sourceBytes = photos.reduce((n, p) => n + statSync(path.join(capture, p.item.processed)).size, 0);
  seedEvents(data, 1, start);
  const dav = await startWebdav(served);
  const config = writeDavConfig(data, dav.url);
  const service = await startServiceProcess(data, capture, PHOTOS);
  let cookie = await adminCookie(service.url);
  const background = createBackgroundMedia({ clock: createSystemClock(), log: createRecordingLogger(), workers: 'processes' });
  try {
    // Thumbnails are made as photos arrive on a booth: all of them are there before publishing.
    for (const p of photos) await fetch(`${service.url}/api/admin/photos/${p.item.id}/thumb`, { headers: { Cookie: cookie } });
    let folder = 0;
    const moveTo = async (): Promise<{ onlineMs: number; idleMs: number; dir: string }> => {
      const name = `f${++folder}`;
      // The owner's key lapses after a while without the console: the bench signs in again, as an owner would.
      cookie = await adminCookie(service.url);
      const t0 = performance.now();
      await api(`${service.url}/api/admin/publish/settings`, cookie, 'PUT', {
        destination: { type: 'webdav', url: dav.url, vendor: 'other', user: 'bench', path: name },
        booth_name: 'bench',
        enabled: true,
      });
      const times = await untilOnline(service.url, cookie, t0);
      const booth = path.join(served, name, 'bench');
      return { ...times, dir: path.join(booth, readdirSync(booth)[0] ?? '') };
    };
    const dropPreviews = (): void => rmSync(path.join(data, 'previews'), { recursive: true, force: true });

    dropPreviews();
    const first = await moveTo();
    const publishedBytes = folderBytes(first.dir);
    let eventDir = first.dir;
    console.log(
      `First publication (previews made on the way): online in ${round(first.onlineMs / 1000, 1)} s; ${round(publishedBytes / 1e6)} MB published (${round(sourceBytes / 1e6)} MB of photos)`,
    );
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const result: Partial<Round> = {};
      const steps: [keyof Round, () => Promise<void>][] = [
        [
          'making',
          async () => {
            const files = photos.map((p) => path.join(capture, p.item.processed));
            const t0 = performance.now();
            const line = async (): Promise<void> => {
              for (let f = files.shift(); f !== undefined; f = files.shift()) await background.resize(f, PREVIEW_OPTIONS);
            };
            await Promise.all([line(), line()]);
            result.making = performance.now() - t0;
          },
        ],
        [
          'made',
          async () => {
            const moved = await moveTo();
            eventDir = moved.dir;
            result.made = moved.onlineMs;
            result.madeIdle = moved.idleMs;
          },
        ],
        [
          'nothing',
          async () => {
            dropPreviews();
            const moved = await moveTo();
            eventDir = moved.dir;
            result.nothing = moved.onlineMs;
          },
        ],
        [
          'plain',
          async () => {
            const dest = `dav:plain-${r}`;
            const t0 = performance.now();
            await run('nice', ['-n', '19', 'rclone', 'copy', eventDir, dest, '--config', config], { maxBuffer: 1024 * 1024 });
            result.plain = performance.now() - t0;
            rmSync(path.join(served, `plain-${r}`), { recursive: true, force: true });
          },
        ],
      ];
      // Which goes first turns with the rounds: a busy moment of the machine falls on each in turn.
      for (let i = 0; i < steps.length; i++) await (steps[(i + r) % steps.length] as [keyof Round, () => Promise<void>])[1]();
      const done = result as Round;
      rounds.push(done);
      console.log(
        `  round ${r + 1}: rclone copy ${round(done.plain / 1000, 1)} s, previews made ${round(done.made / 1000, 1)} s (at rest ${round(done.madeIdle / 1000, 1)} s), from nothing ${round(done.nothing / 1000, 1)} s, making alone ${round(done.making / 1000, 1)} s`,
      );
    }
    const mbps = (ms: number): number => round(publishedBytes / 1e6 / (ms / 1000), 1);
    const plain = rounds.map((x) => x.plain);
    const madeRatio = rounds.map((x) => x.plain / x.made);
    const moveRatio = rounds.map((x) => x.madeIdle / x.plain);
    const overRclone = rounds.map((x) => (x.nothing - x.making) / x.plain);
    const label = `${PHOTOS} camera photos (${round(publishedBytes / 1e6)} MB with previews, thumbnails and pages) to WebDAV on loopback`;
    record(
      `publish ${label}, previews kept, against one plain rclone copy`,
      `${pct(madeRatio)} of rclone's throughput; queue ${spread(rounds.map((x) => x.made))} (${mbps(
        percentile(
          rounds.map((x) => x.made),
          50,
        ),
      )} MB/s), rclone copy ${spread(plain)} (${mbps(percentile(plain, 50))} MB/s)`,
      '≥ 90 % of rclone copy',
      percentile(madeRatio, 50) >= 0.9,
    );
    record(
      `publish ${label}, previews to make: time beyond their making, over one plain rclone copy`,
      `${pct(overRclone)}; from nothing ${spread(rounds.map((x) => x.nothing))}, the previews' making alone ${spread(rounds.map((x) => x.making))}`,
      '≤ 125 % of rclone copy',
      percentile(overRclone, 50) <= 1.25,
    );
    record(
      `move of a ${PHOTOS}-photo event to another folder (online there and the old copy removed), against one plain rclone copy`,
      `${pct(moveRatio)} of the copy's time; ${spread(rounds.map((x) => x.madeIdle))}`,
      '≤ 125 %',
      percentile(moveRatio, 50) <= 1.25,
    );
  } finally {
    await background.pool.close();
    await background.files.close();
    await service.stop();
    await dav.stop();
  }
}
