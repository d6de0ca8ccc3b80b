import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { startWebdav, writeDavConfig } from '../../test/support/rclone.js';
import type { RecordFn } from './print.js';
import { grainyJpeg, round, seedCaptureFolder } from './seed.js';
import { firstRescan, seedEvents, startBenchService, tempDir } from './setup.js';

const run = promisify(execFile);
const PHOTOS = 1000;

/** A still of a processed photo's size and weight (1800×1200, about 400 KB): the content rclone sends. */
const processedJpeg = (): Promise<Buffer> => grainyJpeg({ grain: [360, 240], sigma: 50, blur: 0.8, size: [1800, 1200], quality: 88 });

const folderBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);

/**
 * 1,000 photos of an event published through the upload queue to a WebDAV remote on loopback
 * (`rclone serve webdav`), against one plain `rclone copy` of the same files to the same server.
 * Thumbnails are made beforehand, as the booth makes them when photos arrive.
 */
export async function publishThroughput(record: RecordFn, cleanups: string[]): Promise<void> {
  const capture = tempDir('publish-capture');
  const data = tempDir('publish-data');
  const served = tempDir('publish-served');
  const plain = tempDir('publish-plain');
  cleanups.push(capture, data, served, plain);
  console.log(`Seeding ${PHOTOS} processed photos for the publish bench…`);
  const { photos, start } = await seedCaptureFolder(capture, PHOTOS, 1);
  const jpeg = await processedJpeg();
  for (const p of photos) {
    const file = path.join(capture, p.item.processed);
    writeFileSync(file, jpeg);
    utimesSync(file, new Date(p.takenAt), new Date(p.takenAt));
  }
  seedEvents(data, 1, start);
  const dav = await startWebdav(served);
  // The upload queue against rclone alone: the event's ZIP (as many bytes again) is left out here.
  const handle = await startBenchService(data, capture, { publish: { settleMs: 0, zipMaxBytes: 0 } });
  try {
    await firstRescan(handle);
    for (const p of photos) await handle.services.photos.prepareThumbnail(p.item.id);
    writeDavConfig(data, dav.url);

    const t0 = performance.now();
    await handle.services.publishing.service.update({
      destination: { type: 'webdav', url: dav.url, vendor: 'other', user: 'bench', path: 'publish' },
      booth_name: 'bench',
      enabled: true,
    });
    await handle.services.publishing.queue.whenIdle();
    const queueMs = performance.now() - t0;
    const counts = handle.services.publishing.service.overview().events[0];
    if (counts?.photos_online !== PHOTOS) throw new Error(`only ${counts?.photos_online ?? 0} photos went online`);
    const eventDir = path.join(served, 'publish', 'bench', readdirSync(path.join(served, 'publish', 'bench'))[0] ?? '');
    const bytes = folderBytes(eventDir);

    // The same files (originals and thumbnails, as published), copied by rclone alone.
    cpSync(path.join(eventDir, 'media'), path.join(plain, 'media'), { recursive: true });
    cpSync(path.join(eventDir, 'thumbs'), path.join(plain, 'thumbs'), { recursive: true });
    mkdirSync(path.join(served, 'plain'), { recursive: true });
    const config = path.join(data, 'rclone', 'rclone.conf');
    const p0 = performance.now();
    await run('rclone', ['copy', plain, 'dav:plain', '--config', config], { maxBuffer: 1024 * 1024 });
    const plainMs = performance.now() - p0;

    const ratio = plainMs / queueMs;
    const mbps = (ms: number): number => round(bytes / 1e6 / (ms / 1000), 1);
    record(
      `publish ${PHOTOS} photos to WebDAV on loopback, upload queue vs one plain rclone copy`,
      `queue ${round(queueMs / 1000)} s (${mbps(queueMs)} MB/s), rclone copy ${round(plainMs / 1000)} s (${mbps(plainMs)} MB/s): ${Math.round(ratio * 100)} %`,
      '≥ 80 % of rclone copy',
      ratio >= 0.8,
    );
  } finally {
    await handle.stop();
    await dav.stop();
  }
}
