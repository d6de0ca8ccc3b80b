import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import type { RecordFn } from './print.js';
import { round, seedCaptureFolder } from './seed.js';
import { adminCookie, firstRescan, seedEvents, startBenchService, tempDir } from './setup.js';

/** Rounds of plain read and export for each figure: enough for a median to mean something. */
const ROUNDS = 5;

/** ZIP export against a plain read of the same files, and the memory it takes. */
export async function zipExport(record: RecordFn, cleanups: string[]): Promise<void> {
  const capture = tempDir('zip-capture');
  const data = tempDir('zip-data');
  cleanups.push(capture, data);
  const files = 300;
  const size = 2 * 1024 * 1024;
  console.log(`Seeding ${files} files of ${size / 1048576} MB for the export…`);
  const { photos, start } = await seedCaptureFolder(capture, files, 1, size);
  seedEvents(data, 1, start);
  const handle = await startBenchService(data, capture);
  await firstRescan(handle);
  const cookie = await adminCookie(handle.localUrl);

  /** The baseline: the same files read one after the other, in the same 1 MB reads the export makes. */
  const plainRead = async (): Promise<number> => {
    const t0 = performance.now();
    for (const p of photos) {
      for await (const chunk of createReadStream(`${capture}/${p.item.processed}`, { highWaterMark: 1024 * 1024 })) void chunk;
    }
    return performance.now() - t0;
  };
  /** The export itself (read, CRC, ZIP framing) into a sink that takes everything at once. */
  const exportEngine = async (): Promise<{ ms: number; rssGrowth: number }> => {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const t0 = performance.now();
    await handle.services.exports.write(handle.services.exports.plan('evenement-1'), sink);
    const ms = performance.now() - t0;
    clearInterval(sampler);
    return { ms, rssGrowth: peak - baseline };
  };
  /** The export as a guest's or operator's browser gets it: over HTTP, read by another process. */
  const exportOnce = async (): Promise<{ ms: number; bytes: number; rssGrowth: number }> => {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    // The client times itself from its request to the last byte, leaving its own start-up out.
    const client = `const http = require('node:http'); const t0 = performance.now(); let n = 0;
      http.get(process.argv[1], { headers: { Cookie: process.argv[2] } }, (res) => {
        res.on('data', (c) => (n += c.length));
        res.on('end', () => process.stdout.write(JSON.stringify({ n, ms: performance.now() - t0 })));
      });`;
    const child = spawn(process.execPath, ['-e', client, `${handle.localUrl}/api/admin/events/evenement-1/export.zip`, cookie]);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    await once(child, 'exit');
    clearInterval(sampler);
    const result = JSON.parse(output) as { n: number; ms: number };
    return { ms: result.ms, bytes: result.n, rssGrowth: peak - baseline };
  };

  /**
   * Drops the files from the page cache (GNU dd's nocache, no root needed), so that reads come
   * from the disk, as an event's photos do when it is exported hours or days later.
   */
  const evict = (): boolean =>
    photos.every((p) => spawnSync('dd', [`if=${capture}/${p.item.processed}`, 'iflag=nocache', 'count=0', 'status=none']).status === 0);

  const mb = (files * size) / 1048576;
  const median = (values: number[]): number => {
    const sorted = [...values].sort((x, y) => x - y);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  };
  /**
   * Alternating rounds of a plain read and an export, so that neither side gets the quieter
   * moments of a noisy machine; medians of each, and the median of each round's ratio (a round's
   * two runs share the machine's state of that moment).
   */
  const measure = async (cold: boolean): Promise<{ read: number; engine: number; ratio: number; growth: number }> => {
    const reads: number[] = [];
    const engines: { ms: number; rssGrowth: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (cold) evict();
      reads.push(await plainRead());
      if (cold) evict();
      engines.push(await exportEngine());
    }
    return {
      read: mb / (median(reads) / 1000),
      engine: mb / (median(engines.map((e) => e.ms)) / 1000),
      ratio: median(reads.map((r, i) => r / (engines[i] as { ms: number }).ms)),
      growth: Math.max(...engines.map((e) => e.rssGrowth)),
    };
  };

  const canEvict = evict();
  const cold = canEvict ? await measure(true) : undefined;
  await plainRead();
  const warm = await measure(false);
  const http = await exportOnce();
  if (http.bytes < files * size) throw new Error(`the export sent ${http.bytes} bytes, fewer than the files hold`);
  const httpRate = http.bytes / 1048576 / (http.ms / 1000);
  const judged = cold ?? warm;
  record(
    `ZIP export throughput, ${cold ? 'files read from disk' : 'files in the page cache'} (${files} × ${size / 1048576} MB, stored)`,
    `median ${round(judged.engine)} MB/s vs plain read ${round(judged.read)} MB/s; median ratio of ${ROUNDS} alternating rounds ${round(judged.ratio * 100, 1)} %`,
    '≥ 80 %',
    judged.ratio >= 0.8,
  );
  if (cold) {
    console.log(
      `      from the page cache: median ${round(warm.engine)} MB/s vs ${round(warm.read)} MB/s, median ratio ${round(warm.ratio * 100, 1)} % (against a read that costs almost nothing, the CRC-32 that ZIP requires weighs)`,
    );
  }
  console.log(`      delivered over HTTP to another process on loopback (warm): ${round(httpRate)} MB/s`);
  const growth = Math.max(http.rssGrowth, warm.growth, cold?.growth ?? 0);
  record('resident memory growth during the export', `${round(growth / 1048576, 1)} MB`, '< 64 MB', growth < 64 * 1048576);
  await handle.stop();
}
