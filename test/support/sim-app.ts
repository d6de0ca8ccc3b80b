import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import type { CaptureAppPort } from '../../server/capture/capture.port.js';
import type { SimulatorHandle, SimulatorOptions } from '../../server/capture/simulator/simulator.server.js';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import type { Clock } from '../../server/core/clock/clock.port.js';
import type { RestartStatus } from '../../server/contract/system.contract.js';
import type { Db } from '../../server/db/database.js';
import type { Services } from '../../server/services.js';
import type { FakeSystem } from '../../server/system/system.fake.js';
import type { CaptureRestartOptions } from '../../server/system/capture-restart.service.js';
import { buildTestApp, signIn } from './app.js';
import { clientFor, startTestSimulator } from './simulator.js';
import type { PrinterPort } from '../../server/print/printer.port.js';
import type { PrintWorkerOptions } from '../../server/print/print-worker.js';
import type { VideoFramePort } from '../../server/media/video-frame.port.js';
import type { RclonePort } from '../../server/publish/rclone.port.js';
import type { PublishQueueOptions } from '../../server/publish/publish.queue.js';

export interface SimApp {
  sim: SimulatorHandle;
  client: CaptureAppPort;
  /** Calls made to the capture app, by method. */
  calls: Map<string, unknown[][]>;
  app: Express;
  services: Services;
  system: FakeSystem;
  db: Db;
  cookie: string;
  printer: PrinterPort;
  /** Resolves with the status once the pending or running restart has finished. */
  restartFinished(): Promise<RestartStatus>;
  close(): Promise<void>;
}

/** Counts the calls made to the capture app, per method, to prove some never happen. */
export function spyOn(port: CaptureAppPort): { port: CaptureAppPort; calls: Map<string, unknown[][]> } {
  const calls = new Map<string, unknown[][]>();
  const proxy = new Proxy(port, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(name), [...(calls.get(String(name)) ?? []), args]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { port: proxy, calls };
}

/**
 * createApp wired to the capture-app simulator over real HTTP, with quick restart timings.
 * `live` also runs the photo index as the service does: a rescan, then the capture app's stream.
 */
export async function startSimApp(
  options: {
    live?: boolean;
    printer?: PrinterPort;
    print?: Partial<PrintWorkerOptions>;
    videoFrames?: VideoFramePort;
    /** The capture app runs elsewhere: Boothdeck cannot read its data folder. */
    foreignFolder?: boolean;
    rclone?: RclonePort;
    publish?: Partial<PublishQueueOptions>;
    /** A clock of the test's (a wall clock it moves); the system's by default. */
    clock?: Clock;
    /** Restart timings over the quick ones below. */
    restart?: Partial<CaptureRestartOptions>;
  } & Pick<SimulatorOptions, 'version' | 'systemdUnit'> = {},
): Promise<SimApp> {
  const sim = await startTestSimulator({ version: options.version, systemdUnit: options.systemdUnit });
  // A short write deadline, so that tests of a lost answer do not wait 20 s.
  const spy = spyOn(clientFor(sim, { configWriteTimeoutMs: 1500 }));
  const client = spy.port;
  const { app, services, system, db, printer } = await buildTestApp({
    capture: client,
    printer: options.printer,
    videoFrames: options.videoFrames,
    rclone: options.rclone,
    publish: options.publish,
    print: { pollMs: 10, pausePollMs: 30, watchMs: 50, ...options.print },
    captureDataDir: options.foreignFolder ? mkdtempSync(path.join(os.tmpdir(), 'boothdeck-elsewhere-')) : sim.dataDir,
    clock: options.clock ?? createSystemClock(),
    restart: {
      debounceMs: 150,
      downGraceMs: 1000,
      pollMs: 20,
      readyTimeoutMs: 5000,
      refresh: { command: 'wtype', args: ['-k', 'F5'], env: { WAYLAND_DISPLAY: 'wayland-0' } },
      ...options.restart,
    },
  });
  const cookie = await signIn(app);
  // The link is what tells the restart service that the capture app went down (its stream
  // breaks), as in the service; `live` adds the photo index on top of it.
  if (options.live) services.photoSync.start();
  services.captureLink.start();
  services.publishing.queue.start();
  return {
    sim,
    client,
    calls: spy.calls,
    app,
    services,
    system,
    db,
    cookie,
    printer,
    restartFinished: () =>
      new Promise((resolve) => {
        const settledNow = services.restarter.status();
        const over = (state: string): boolean => state === 'done' || state === 'warning' || state === 'failed';
        if (over(settledNow.state)) return resolve(settledNow);
        const off = services.restarter.onChange((s) => {
          if (over(s.state)) {
            off();
            resolve(s);
          }
        });
      }),
    async close() {
      await services.publishing.queue.stop();
      await services.printWorker.stop();
      services.captureLink.stop();
      await services.photoSync.stop();
      await services.restarter.stop();
      await sim.stop();
    },
  };
}

/** Publishes the current event to a local folder `root` as booth `b`, and gives the event's folder once the queue is idle. */
export async function publishToFolder(t: SimApp, root: string): Promise<string> {
  await t.services.publishing.service.update({ destination: { type: 'local', path: root }, booth_name: 'b', enabled: true });
  await t.services.publishing.queue.whenIdle();
  const [token = ''] = readdirSync(path.join(root, 'b'));
  return path.join(root, 'b', token);
}
