import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { childLabel, childrenOf, EXPORT_PROCESS } from './cpu.js';
import type { RecordFn } from './print.js';
import { rssOf } from './memory.js';
import { percentile, round, seedCaptureFolder } from './seed.js';
import { adminCookie, seedEvents, tempDir } from './setup.js';
import { startServiceProcess } from './service-process.js';

/** Alternating rounds of a plain read and an export: enough for a median to mean something. */
const ROUNDS = 5;
/** An event's worth of camera files: 600 of 3.4 MB, about 2 GB. */
const FILES = 600;
const FILE_BYTES = Math.round(3.4 * 1024 * 1024);

interface Timed {
  ms: number;
  bytes: number;
}

/** Runs a command, and reads its stdout as JSON or as curl's `-w` line. */
async function run(command: string, args: string[]): Promise<string> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} exited with ${code}`);
  return output;
}

/** The baseline: the same files read one after the other by another Node process, with Node's default reads. */
function plainRead(files: string[]): Promise<Timed> {
  const reader = `const fs = require('node:fs');
    const files = JSON.parse(process.argv[1]);
    const t0 = performance.now(); let bytes = 0;
    (async () => {
      for (const f of files) for await (const c of fs.createReadStream(f)) bytes += c.length;
      process.stdout.write(JSON.stringify({ ms: performance.now() - t0, bytes }));
    })();`;
  return run(process.execPath, ['-e', reader, JSON.stringify(files)]).then((out) => JSON.parse(out) as Timed);
}

const hasCurl = spawnSync('curl', ['--version']).status === 0;

/** The export as an operator's browser gets it: over HTTP, by curl (or Node's client without it), in another process. */
async function httpExport(url: string, cookie: string): Promise<Timed> {
  if (hasCurl) {
    const out = await run('curl', ['-s', '-o', '/dev/null', '-H', `Cookie: ${cookie}`, '-w', '%{size_download} %{time_total}', url]);
    const [bytes, seconds] = out.trim().split(' ').map(Number);
    return { bytes: bytes ?? 0, ms: (seconds ?? 0) * 1000 };
  }
  const client = `const http = require('node:http'); const t0 = performance.now(); let bytes = 0;
    http.get(process.argv[1], { headers: { Cookie: process.argv[2] } }, (res) => {
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => process.stdout.write(JSON.stringify({ bytes, ms: performance.now() - t0 })));
    });`;
  return JSON.parse(await run(process.execPath, ['-e', client, url, cookie])) as Timed;
}

/**
 * The ZIP export over HTTP against a plain read of the same files in another process, alternated
 * round by round, with the files in the page cache (an export right after the event) and dropped
 * from it (GNU dd's nocache, no root needed: an export days later); the service in its own process,
 * whose resident memory is sampled throughout.
 */
export async function zipExport(record: RecordFn, cleanups: string[]): Promise<void> {
  const capture = tempDir('zip-capture');
  const data = tempDir('zip-data');
  cleanups.push(capture, data);
  console.log(`Seeding ${FILES} files of ${round(FILE_BYTES / 1048576, 1)} MB for the export…`);
  const { photos, start } = await seedCaptureFolder(capture, FILES, 1, FILE_BYTES);
  seedEvents(data, 1, start);
  const files = photos.map((p) => `${capture}/${p.item.processed}`);
  const service = await startServiceProcess(data, capture, FILES);
  try {
    const cookie = await adminCookie(service.url);
    const url = `${service.url}/api/admin/events/evenement-1/export.zip`;
    const evict = (): boolean => files.every((f) => spawnSync('dd', [`if=${f}`, 'iflag=nocache', 'count=0', 'status=none']).status === 0);
    const idleRss = rssOf(service.pid);
    let peakRss = idleRss;
    let peakChildren = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssOf(service.pid));
      // The export process, not the thumbnail workers that may run beside it.
      const exporting = childrenOf(service.pid).filter((pid) => childLabel(pid) === EXPORT_PROCESS);
      peakChildren = Math.max(
        peakChildren,
        exporting.reduce((sum, pid) => sum + rssOf(pid), 0),
      );
    }, 50);

    const measure = async (cold: boolean): Promise<{ read: number; zip: number; ratio: number }> => {
      const reads: Timed[] = [];
      const zips: Timed[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Which goes first alternates too: neither always meets the other's leftovers.
        const pair = i % 2 === 0 ? ['read', 'zip'] : ['zip', 'read'];
        for (const which of pair) {
          if (cold) evict();
          if (which === 'read') reads.push(await plainRead(files));
          else {
            const z = await httpExport(url, cookie);
            if (z.bytes < FILES * FILE_BYTES) throw new Error(`the export sent ${z.bytes} bytes, fewer than the files hold`);
            zips.push(z);
          }
        }
      }
      const rate = (t: Timed[]): number =>
        percentile(
          t.map((x) => x.bytes / 1048576 / (x.ms / 1000)),
          50,
        );
      return {
        read: rate(reads),
        zip: rate(zips),
        ratio: percentile(
          reads.map((r, i) => r.ms / (zips[i] as Timed).ms),
          50,
        ),
      };
    };

    await plainRead(files);
    const warm = await measure(false);
    const cold = evict() ? await measure(true) : undefined;
    clearInterval(sampler);
    const describe = (m: { read: number; zip: number; ratio: number }): string =>
      `median ${round(m.zip)} MB/s over HTTP (${hasCurl ? 'curl' : 'Node client'}) vs plain read ${round(m.read)} MB/s; median ratio of ${ROUNDS} alternating rounds ${round(m.ratio * 100, 1)} %`;
    const size = `${FILES} × ${round(FILE_BYTES / 1048576, 1)} MB, stored`;
    record(`ZIP export over HTTP, files in the page cache (${size})`, describe(warm), '≥ 80 % of a plain read', warm.ratio >= 0.8);
    if (cold) record(`ZIP export over HTTP, files read from disk (${size})`, describe(cold), '≥ 80 % of a plain read', cold.ratio >= 0.8);
    else console.log('      files read from disk: skipped (dd cannot drop them from the page cache here)');
    const growth = peakRss - idleRss;
    record(
      'service resident memory during the exports',
      `${round(idleRss / 1048576, 1)} MB idle, peak ${round(peakRss / 1048576, 1)} MB (+${round(growth / 1048576, 1)} MB); its export process ${round(peakChildren / 1048576, 1)} MB at its peak`,
      '< 64 MB more',
      growth < 64 * 1048576,
    );
  } finally {
    await service.stop();
  }
}
