import http from 'node:http';
import { readFileSync } from 'node:fs';
import { childLabel, childrenOf, EXPORT_PROCESS } from './cpu.js';
import type { RecordFn } from './print.js';
import { round, seedCaptureFolder } from './seed.js';
import { adminCookie, seedEvents, tempDir } from './setup.js';
import { startServiceProcess } from './service-process.js';

/** A script asking for this many ZIPs at once, and reading none of them. */
const ATTEMPTS = 20;
/** Enough camera files that no export fits in the kernel's buffers: each stays under way while its reader stalls. */
const FILES = 150;
const FILE_BYTES = Math.round(3.4 * 1024 * 1024);
/** The stall limit is a minute: watched a little longer. */
const WATCH_STALLED_MS = 90_000;
/** Boothdeck's budget beside the capture app on a Pi: the service's own (+64 MB) and two export processes. */
const BUDGET_BYTES = 256 * 1024 * 1024;

function rssOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.replace(/\D+/g, '') ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The service and every process under it (export processes, workers, rclone), in bytes. */
function treeRss(pid: number): number {
  return rssOf(pid) + childrenOf(pid).reduce((sum, child) => sum + treeRss(child), 0);
}

const exportProcesses = (pid: number): number[] => childrenOf(pid).filter((c) => childLabel(c) === EXPORT_PROCESS);

interface Answer {
  status: number;
  code: string | undefined;
  req: http.ClientRequest;
}

/** One request of the script: a ZIP's headers are read, its body never. */
function ask(url: string, cookie: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Cookie: cookie } }, (res) => {
      if (res.statusCode === 200) {
        res.pause();
        resolve({ status: 200, code: undefined, req });
        return;
      }
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, code, req });
      });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

/**
 * Twenty ZIP exports asked at once by a script that reads none of them (issue 43), against the built
 * service in its own process: how many run, how many are refused in words, Boothdeck's memory (the
 * service and all its children) at rest and at its peak, and how long the stalled exports live on.
 */
export async function exportFlood(record: RecordFn, cleanups: string[]): Promise<void> {
  const capture = tempDir('flood-capture');
  const data = tempDir('flood-data');
  cleanups.push(capture, data);
  console.log(`Seeding ${FILES} files of ${round(FILE_BYTES / 1048576, 1)} MB for the flood…`);
  const { start } = await seedCaptureFolder(capture, FILES, 1, FILE_BYTES);
  seedEvents(data, 1, start);
  const service = await startServiceProcess(data, capture, FILES);
  try {
    const cookie = await adminCookie(service.url);
    const url = `${service.url}/api/admin/events/evenement-1/export.zip`;
    // At rest once the start's thumbnails are made: the workers idle.
    await new Promise((r) => setTimeout(r, 3000));
    const idle = treeRss(service.pid);
    let peak = idle;
    let mostExports = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRss(service.pid));
      mostExports = Math.max(mostExports, exportProcesses(service.pid).length);
    }, 50);
    const stalledAt = performance.now();
    const answers = await Promise.all(Array.from({ length: ATTEMPTS }, () => ask(url, cookie)));
    const running = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429 && a.code === 'exports_busy');
    // The stalled exports: how long until the service ends them by itself.
    let endedAfter: number | undefined;
    while (performance.now() - stalledAt < WATCH_STALLED_MS) {
      await new Promise((r) => setTimeout(r, 500));
      if (exportProcesses(service.pid).length === 0) {
        endedAfter = performance.now() - stalledAt;
        break;
      }
    }
    clearInterval(sampler);
    for (const a of running) a.req.destroy();
    record(
      `${ATTEMPTS} ZIP exports asked at once, none read`,
      `${running.length} ran, ${refused.length} refused with exports_busy, ${ATTEMPTS - running.length - refused.length} other; at most ${mostExports} export processes at a time`,
      `2 run, ${ATTEMPTS - 2} refused`,
      running.length === 2 && refused.length === ATTEMPTS - 2 && mostExports <= 2,
    );
    record(
      'Boothdeck’s memory under the flood (the service and all its children)',
      `${round(idle / 1048576, 1)} MB at rest, peak ${round(peak / 1048576, 1)} MB (+${round((peak - idle) / 1048576, 1)} MB)`,
      `< ${round(BUDGET_BYTES / 1048576)} MB more`,
      peak - idle < BUDGET_BYTES,
    );
    record(
      'stalled readers’ exports ended by the service',
      endedAfter === undefined ? `still running after ${WATCH_STALLED_MS / 1000} s` : `after ${round(endedAfter / 1000, 1)} s`,
      '≈ 60–70 s',
      endedAfter !== undefined && endedAfter < 75_000,
    );
  } finally {
    await service.stop();
  }
}
