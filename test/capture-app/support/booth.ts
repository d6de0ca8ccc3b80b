import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createFakeHardware } from '../../../native/hardware.js';
import { CaptureClient } from '../../../server/capture/capture.client.js';
import type { CaptureConfig, CaptureEvent, MediaItem } from '../../../server/capture/capture.types.js';
import { loadConfig } from '../../../server/config.js';
import { createSystemClock } from '../../../server/core/clock/clock.system.js';
import { createRecordingLogger, type RecordingLogger } from '../../../server/core/logger.js';
import { FakePrinter } from '../../../server/print/printer.fake.js';
import { startService, type ServiceHandle } from '../../../server/service.js';
import type { CaptureRestartOptions } from '../../../server/system/capture-restart.service.js';
import { FakeSystem } from '../../../server/system/system.fake.js';
import { StreamRecorder } from '../../support/simulator.js';
import { startCaptureApp, type CaptureAppUnderTest } from './capture-app.js';

export const PIN = '135790';

type Json = Record<string, unknown>;

/** An HTTP answer read whole: status, headers and the body as JSON (or null) and bytes. */
export interface Answer {
  status: number;
  headers: Headers;
  /** Untyped JSON, as supertest gives it to the other tests: the assertions are the type check. */
  body: ReturnType<typeof JSON.parse>;
  bytes: Buffer;
}

async function answer(res: Response): Promise<Answer> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(bytes.toString('utf8')) : null, bytes };
}

/** A person with a browser: keeps the cookies Boothdeck sets (the operator's session, a guest's print session). */
export class Visitor {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call(method: string, url: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return answer(res);
  }

  get = (url: string) => this.call('GET', url);
  post = (url: string, body?: unknown) => this.call('POST', url, body ?? {});
  put = (url: string, body?: unknown) => this.call('PUT', url, body);
  del = (url: string) => this.call('DELETE', url);
}

/** What a guest's job at the booth ended with, as the capture app told it on its stream. */
export interface JobRun {
  ok: boolean;
  /** The items it added (DbInsert), parts first, in their order. */
  inserted: MediaItem[];
  /** Every state change, `source→target` ("{}" for the failed job's empty one). */
  states: string[];
  /** How long from the button to the last event, in ms (indicative). */
  ms: number;
}

/**
 * A guest at the booth's own screen: presses the capture app's buttons and answers its
 * "keep this photo?" question, watching the app's stream on a connection of its own.
 */
export class BoothScreen {
  readonly stream = new StreamRecorder();
  private readonly subscription;
  constructor(readonly client: CaptureClient) {
    this.subscription = client.subscribe(this.stream.onEvent, this.stream.onState);
  }

  async connected(): Promise<void> {
    if (this.stream.states.at(-1) !== 'connected') await this.stream.nextState('connected');
  }

  /** Presses the button of the n-th action of a kind, as a guest would. */
  async press(kind: string, index = 0): Promise<void> {
    const res = await fetch(`${this.client.baseUrl}/api/actions/${kind}/${index}`);
    if (res.status !== 200) throw new Error(`The booth refused ${kind} ${index}: ${res.status} ${await res.text()}`);
  }

  /** Waits for a job state the stream sends from now on. */
  nextState(target: string, timeoutMs = 60_000): Promise<CaptureEvent> {
    return withTimeout(
      this.stream.nextEvent((e) => e.event === 'ProcessStateinfo' && (e.data as Json | null)?.target === target),
      timeoutMs,
      `the capture app's ${target}`,
    );
  }

  /** A whole job: the button, every approval answered "keep", until it ends (well or not). */
  async job(kind: string, index = 0, options: { beforePress?: () => void } = {}): Promise<JobRun> {
    const run: JobRun = { ok: false, inserted: [], states: [], ms: 0 };
    const started = performance.now();
    const ended = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The ${kind} job did not end in 150 s: ${run.states.join(', ')}`)), 150_000);
      const off = this.stream.listen((e) => {
        if (e.event === 'DbInsert') run.inserted.push(e.data as MediaItem);
        if (e.event !== 'ProcessStateinfo') return;
        const info = e.data as { source?: string; target?: string };
        run.states.push(info.target ? `${info.source}→${info.target}` : '{}');
        if (info.target === 'approval') void fetch(`${this.client.baseUrl}/api/processing/next`);
        if (info.target === 'finished' || !info.target) {
          run.ok = info.target === 'finished';
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
    options.beforePress?.();
    await this.press(kind, index);
    await ended;
    run.ms = Math.round(performance.now() - started);
    return run;
  }

  close(): void {
    this.subscription.close();
  }
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Waited ${ms / 1000} s for ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `read` until `ok` holds, at most `ms` (a bound for a slow machine, not a timing). */
export async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, ms = 60_000, what = 'a condition'): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (performance.now() > deadline) throw new Error(`Waited ${ms / 1000} s for ${what}; last: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Boothdeck as the booth runs it, pointed at a capture app the suite started. */
export interface Booth {
  app: CaptureAppUnderTest;
  service: ServiceHandle;
  system: FakeSystem;
  printer: FakePrinter;
  log: RecordingLogger;
  /** The operator at the console, signed in. */
  operator: Visitor;
  /** Capture-app client of the suite's own (its admin API, as the app's own admin page would). */
  client: CaptureClient;
  booth: BoothScreen;
  /** The capture app's config.json as it is on disk. */
  configFile(): CaptureConfig;
  /** A new guest's phone. */
  guest(): Visitor;
  close(): Promise<void>;
}

/** Starts the capture app the run targets, then Boothdeck on it, and signs the operator in. */
export async function startBooth(name: string, restart: Partial<CaptureRestartOptions> = {}): Promise<Booth> {
  const app = await startCaptureApp(inject('captureTarget'), name, inject('captureRun'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-contract-'));
  const system = new FakeSystem();
  const printer = new FakePrinter();
  const log = createRecordingLogger();
  let service: ServiceHandle | undefined;
  let booth: BoothScreen | undefined;
  // However a booth ends, a start that failed half-way included, nothing of it outlives its file.
  const close = async (): Promise<void> => {
    booth?.close();
    try {
      await service?.stop();
    } finally {
      await app.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    const running = await startService(
      loadConfig({
        BOOTHDECK_PORT: '0',
        BOOTHDECK_HOST: '127.0.0.1',
        BOOTHDECK_DATA_DIR: dataDir,
        BOOTHDECK_ADMIN_PIN: PIN,
        BOOTHDECK_CAPTURE_URL: app.url,
        BOOTHDECK_CAPTURE_DATA_DIR: app.dataDir,
        BOOTHDECK_SCREEN_REFRESH: '["wtype","-k","F5"]',
      }),
      { system, printer, log, hardware: createFakeHardware(), relaunch: () => undefined, exit: () => undefined, restart },
    );
    service = running;
    const operator = new Visitor(running.localUrl);
    const signIn = await operator.post('/api/admin/session', { pin: PIN });
    if (signIn.status !== 204) throw new Error(`The operator could not sign in: ${signIn.status}`);
    const client = new CaptureClient({ baseUrl: app.url, password: '0000', clock: createSystemClock() });
    const screen = new BoothScreen(client);
    booth = screen;
    await screen.connected();
    await until(
      () => running.services.captureLink.state,
      (s) => s === 'connected',
      30_000,
      'Boothdeck’s stream from the capture app',
    );
    return {
      app,
      service: running,
      system,
      printer,
      log,
      operator,
      client,
      booth: screen,
      configFile: () => JSON.parse(readFileSync(path.join(app.dataDir, 'config', 'config.json'), 'utf8')) as CaptureConfig,
      guest: () => new Visitor(running.localUrl),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
