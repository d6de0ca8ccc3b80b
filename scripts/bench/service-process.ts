import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MALLOC_ARENAS, V8_MEMORY_FLAGS } from '../../server/core/host-memory.js';
import { BENCH_PIN, adminCookie } from './setup.js';

const ENTRY = fileURLToPath(new URL('../../dist/node/server/index.js', import.meta.url));
const READY_WITHIN_MS = 120_000;

export interface ServiceProcess {
  url: string;
  /** The service's process, to read its memory from /proc. */
  pid: number;
  /** How long its last photo rescan took, as it logged it (ms), the first screen's thumbnails included. */
  rescanMs: number | undefined;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** How many photos the service has indexed over all events, or -1 while it cannot answer. */
async function indexedCount(url: string, cookie: string): Promise<number> {
  try {
    const res = await fetch(`${url}/api/admin/events`, { headers: { Cookie: cookie } });
    if (!res.ok) return -1;
    const body = (await res.json()) as { events: { photo_count: number }[] };
    return body.events.reduce((sum, e) => sum + e.photo_count, 0);
  } catch {
    return -1;
  }
}

async function signIn(url: string): Promise<string> {
  try {
    return await adminCookie(url);
  } catch {
    return '';
  }
}

/**
 * The built service as `npm start` and the booth's unit run it (two malloc arenas, V8's small young
 * generation: server/core/host-memory.ts), in a process of its own (a browser driven
 * from the bench's process would otherwise share the service's event loop), on the simulator with
 * no photos of its own. Resolves once its start rescan has indexed `expectedCount` photos.
 */
export async function startServiceProcess(
  dataDir: string,
  captureDataDir: string,
  expectedCount: number,
  /**
   * A capture app of its own (the share bench's, in another process) instead of the bundled
   * simulator; options for Node itself (`--cpu-prof` to profile the service).
   */
  options: { captureUrl?: string; nodeArgs?: string[] } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [...V8_MEMORY_FLAGS, ...(options.nodeArgs ?? []), ENTRY], {
    cwd: path.dirname(ENTRY),
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: MALLOC_ARENAS,
      NODE_ENV: 'production',
      BOOTHDECK_PORT: String(port),
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_DATA_DIR: dataDir,
      BOOTHDECK_CAPTURE_URL: options.captureUrl ?? 'simulator',
      BOOTHDECK_CAPTURE_DATA_DIR: captureDataDir,
      BOOTHDECK_ADMIN_PIN: BENCH_PIN,
      BOOTHDECK_HARDWARE: 'fake',
      BOOTHDECK_SIMULATOR_INTERVAL: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let rescanMs: number | undefined;
  // Read to the end whatever it says: a pipe left full would stop the service's logging.
  createInterface({ input: child.stdout as Readable }).on('line', (line) => {
    const took = / Photo index: .*\((\d+) ms\)$/.exec(line);
    if (took) rescanMs = Number(took[1]);
  });
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = performance.now() + READY_WITHIN_MS;
  // Polling is the only signal a separate process gives; the service itself is not slowed by it.
  let cookie = '';
  for (;;) {
    cookie ||= await signIn(url);
    if (cookie && (await indexedCount(url, cookie)) >= expectedCount) break;
    if (child.exitCode !== null) throw new Error(`the service stopped with code ${child.exitCode}`);
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the service did not index ${expectedCount} photos within ${READY_WITHIN_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid as number,
    get rescanMs() {
      return rescanMs;
    },
    stop,
  };
}
