import type { Express } from 'express';
import type { CaptureClient } from '../../server/capture/capture.client.js';
import type { SimulatorHandle } from '../../server/capture/simulator/simulator.server.js';
import { createSystemClock } from '../../server/clock/clock.system.js';
import type { RestartStatus } from '../../server/contract/system.contract.js';
import type { Db } from '../../server/db/database.js';
import type { Services } from '../../server/services.js';
import type { FakeSystem } from '../../server/system/system.fake.js';
import { buildTestApp, signIn } from './app.js';
import { clientFor, startTestSimulator } from './simulator.js';

export interface SimApp {
  sim: SimulatorHandle;
  client: CaptureClient;
  app: Express;
  services: Services;
  system: FakeSystem;
  db: Db;
  cookie: string;
  /** Resolves with the status once the pending or running restart has finished. */
  restartFinished(): Promise<RestartStatus>;
  close(): Promise<void>;
}

/** createApp wired to the capture-app simulator over real HTTP, with quick restart timings. */
export async function startSimApp(): Promise<SimApp> {
  const sim = await startTestSimulator();
  // A short write deadline, so that tests of a lost answer do not wait 20 s.
  const client = clientFor(sim, { configWriteTimeoutMs: 1500 });
  const { app, services, system, db } = await buildTestApp({
    capture: client,
    clock: createSystemClock(),
    restart: {
      debounceMs: 150,
      downGraceMs: 50,
      pollMs: 20,
      readyTimeoutMs: 5000,
      refresh: { command: 'wtype', args: ['-k', 'F5'], env: { WAYLAND_DISPLAY: 'wayland-0' } },
    },
  });
  const cookie = await signIn(app);
  return {
    sim,
    client,
    app,
    services,
    system,
    db,
    cookie,
    restartFinished: () =>
      new Promise((resolve) => {
        const settledNow = services.restarter.status();
        if (settledNow.state === 'done' || settledNow.state === 'failed') return resolve(settledNow);
        const off = services.restarter.onChange((s) => {
          if (s.state === 'done' || s.state === 'failed') {
            off();
            resolve(s);
          }
        });
      }),
    async close() {
      await services.restarter.stop();
      await sim.stop();
    },
  };
}
