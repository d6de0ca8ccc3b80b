import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createHardware, type Hardware } from '../native/hardware.js';
import { installRelaySafety } from './hardware/relay-safety.js';
import { relayOffSwitchPath } from './hardware/relay-off-switch.js';
import { appBuild, appVersion, defaultRendererDir } from './core/app-info.js';
import { createApp } from './app.js';
import { CaptureClient } from './capture/capture.client.js';
import type { CaptureAppPort } from './capture/capture.port.js';
import { startSimulator, type SimulatorHandle } from './capture/simulator/simulator.server.js';
import type { Clock } from './core/clock/clock.port.js';
import { createSystemClock } from './core/clock/clock.system.js';
import { openFileLimit } from './core/stream-slots.js';
import type { ServiceConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { closeDataDir, closeTree, closeUmask, type TreeRepair } from './core/fs/closed-at-rest.js';
import { createFileLogger, type Logger } from './core/logger.js';
import { buildServices, type Services } from './services.js';
import { isScreenRefreshCommand, type SystemPort } from './system/system.port.js';
import type { CaptureRestartOptions } from './system/capture-restart.service.js';
import { createExecSystem } from './system/system.exec.js';
import { CupsPrinter } from './print/printer.cups.js';
import type { PrinterPort } from './print/printer.port.js';
import type { PrintWorkerOptions } from './print/print-worker.js';
import { carryOverPrintJobs } from './print/print-carry-over.js';
import { FfmpegVideoFrames } from './media/video-frame.ffmpeg.js';
import type { VideoFramePort } from './media/video-frame.port.js';
import type { RclonePort } from './publish/rclone.port.js';
import { RcloneProcess } from './publish/rclone.process.js';
import type { PublishQueueOptions } from './publish/publish.queue.js';
import { keepPhonesConnected } from './http/keep-alive.js';

export interface ServiceHandle {
  /** Where this process listens, on loopback: what the kiosk window loads. */
  localUrl: string;
  adminUrl: string;
  galleryUrl: string;
  captureUrl: string;
  simulator: SimulatorHandle | undefined;
  services: Services;
  /** The repair of a data folder found open to other users at start (done at once when it was closed). */
  atRest: Promise<TreeRepair>;
  stop(): Promise<void>;
}

/** Ports a host may substitute (the tests do); everything else is built from the configuration. */
export interface ServiceOverrides {
  clock?: Clock;
  system?: SystemPort;
  hardware?: Hardware;
  capture?: CaptureAppPort;
  log?: Logger;
  rendererDir?: string;
  simulatorTimeScale?: number;
  restart?: Partial<CaptureRestartOptions>;
  /**
   * How the host restarts Boothdeck (the kiosk: app.relaunch() then exit). Without it the
   * service stops cleanly and exits with RESTART_EXIT_CODE for its supervisor to start it again.
   */
  relaunch?: () => void;
  /** The process exit of the headless restart; tests replace it so they never end the process. */
  exit?: (code: number) => void;
  /** The photo printer; CUPS through lp/lpstat/cancel unless a host substitutes one. */
  printer?: PrinterPort;
  print?: Partial<PrintWorkerOptions>;
  /** Where ZIP exports are made; built, in a process of their own (event-export.ts decides). */
  exportWorkers?: 'processes' | 'in-process';
  /** Frames of videos; ffmpeg unless a host substitutes something. */
  videoFrames?: VideoFramePort;
  /** The remote of the online galleries; rclone unless a host substitutes one. */
  rclone?: RclonePort;
  publish?: Partial<PublishQueueOptions>;
}

/** Non-zero, so that systemd's Restart=on-failure starts the headless service again. */
export const RESTART_EXIT_CODE = 75;

/** Guests join the booth's Wi-Fi: its interface first, then wired ones; never container bridges. */
function interfaceRank(name: string): number {
  if (/^(wlan|wl)/.test(name)) return 0;
  if (/^(eth|en)/.test(name)) return 1;
  if (/^(docker|br-|veth|virbr|lxc|tun|tap|zt|wg)/.test(name)) return 9;
  return 5;
}

/** Read at each call: the Wi-Fi lease often arrives after the service has started. */
function lanAddress(): string | undefined {
  const candidates = Object.entries(os.networkInterfaces()).flatMap(([name, list]) =>
    (list ?? []).filter((e) => e.family === 'IPv4' && !e.internal).map((e) => ({ name, address: e.address })),
  );
  return candidates.filter((c) => interfaceRank(c.name) < 9).sort((a, b) => interfaceRank(a.name) - interfaceRank(b.name))[0]?.address;
}

/** The address a guest's phone would use: the booth's LAN address unless bound to one host. */
function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return lanAddress() ?? '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Composes the whole service: storage, capture app (or its simulator), hardware, HTTP app,
 * background work. Returns once it listens; `stop()` undoes it all in reverse.
 */
export async function startService(config: ServiceConfig, overrides: ServiceOverrides = {}): Promise<ServiceHandle> {
  // Closed at rest: what the service and its children create is its user's alone, and the data
  // folder (the database, the secrets) is checked before anything is opened in it.
  closeUmask();
  const atStart = closeDataDir(config.dataDir);
  const logDir = path.join(config.dataDir, 'logs');
  // The given logger (the tests' recorder) still sees every line; the file is always written.
  const fileLog = await createFileLogger(logDir, overrides.log ? { echo: overrides.log } : { stdout: true });
  const log: Logger = fileLog;
  const clock = overrides.clock ?? createSystemClock();
  const db = openDatabase(path.join(config.dataDir, 'boothdeck.sqlite'));
  const cleanup: (() => Promise<void> | void)[] = [
    () => fileLog.close(),
    () => {
      db.close();
    },
  ];
  let restartSelf: () => void = () => undefined;

  try {
    let simulator: SimulatorHandle | undefined;
    let captureUrl = config.captureUrl;
    if (!overrides.capture && captureUrl === undefined) {
      simulator = await startSimulator({
        dataDir: config.captureDataDir ?? path.join(config.dataDir, 'capture-simulator'),
        password: config.capturePassword,
        autoCaptureSeconds: config.simulatorIntervalSeconds,
        timeScale: overrides.simulatorTimeScale ?? 1,
      });
      cleanup.push(() => simulator?.stop());
      captureUrl = simulator.url;
      log.info(
        `Capture-app simulator (BOOTHDECK_CAPTURE_URL=simulator or a development checkout) on ${simulator.url} (data in ${simulator.dataDir})`,
      );
    }
    const capture = overrides.capture ?? new CaptureClient({ baseUrl: captureUrl ?? '', password: config.capturePassword, clock });
    // Devices open with the stored settings when the hardware service starts, below.
    const hardware = overrides.hardware ?? createHardware(config.hardware);
    cleanup.push(() => hardware.close());

    // The simulator has no screen of its own to refresh; a real capture app has the booth's.
    const refreshArgv = config.screenRefresh === undefined ? (simulator ? null : ['wtype', '-k', 'F5']) : config.screenRefresh;
    const [refreshCommand, ...refreshArgs] = refreshArgv ?? [];
    const captureDataDir = simulator?.dataDir ?? config.captureDataDir ?? path.join(os.homedir(), 'photobooth-data');
    let port = config.port;
    const services = buildServices(
      {
        db,
        capture,
        clock,
        system: overrides.system ?? createExecSystem(),
        hardware,
        printer: overrides.printer ?? new CupsPrinter(createExecSystem()),
        // Video frames and uploads run below the capture app (nice 19), as the background workers do.
        videoFrames: overrides.videoFrames ?? new FfmpegVideoFrames(createExecSystem({ priority: 'background' })),
        // rclone runs for real even when the tests record the other commands.
        rclone: overrides.rclone ?? new RcloneProcess(createExecSystem({ priority: 'background' }), path.join(config.dataDir, 'publish')),
        log,
      },
      {
        version: appVersion(),
        build: appBuild(),
        logDir,
        restartSelf: () => restartSelf(),
        simulator: simulator !== undefined,
        dataDir: config.dataDir,
        captureDataDir,
        galleryUrl: () => `http://${publicHost(config.host)}:${port}/`,
        print: overrides.print,
        publish: overrides.publish,
        publishRoot: config.publishRoot,
        exportWorkers: overrides.exportWorkers,
        relayOffSwitchFile: relayOffSwitchPath(process.env.XDG_RUNTIME_DIR),
        restart: {
          unit: config.captureUnit,
          refresh:
            refreshCommand && isScreenRefreshCommand(refreshCommand)
              ? { command: refreshCommand, args: refreshArgs, env: { WAYLAND_DISPLAY: config.waylandDisplay } }
              : undefined,
          ...overrides.restart,
        },
      },
    );
    if (config.adminPin !== undefined) await services.auth.applyConfiguredPin(config.adminPin);
    const atRest = (atStart.wasOpen ? closeTree(atStart.dir) : Promise.resolve({ closed: 0, refused: [] })).then((tree) => ({
      closed: tree.closed,
      refused: [...new Set([...atStart.stillOpen, ...tree.refused])],
    }));
    void atRest.then(({ closed, refused }) => {
      if (atStart.stillOpen.includes(atStart.dir))
        log.error(
          `The data folder ${atStart.dir} stays open to other users (its file system may keep no modes, as FAT does): keep Boothdeck's data on the board's own file system`,
        );
      else if (atStart.wasOpen) log.warn(`The data folder was open to other users: it is closed now (${closed} folders and files closed)`);
      if (refused.length > 0) log.warn(`Files of the data folder that could not be closed to other users: ${refused.join(', ')}`);
    });
    // Node raises its own soft descriptor limit to the hard one at start; only the hard limit
    // (systemd's LimitNOFILE) can give more. Live streams are capped well under what there is.
    log.info(`Open file limit: ${openFileLimit() ?? 'unknown'}; live streams capped at ${services.hub.slots.options.total}`);

    const app = createApp({ services, rendererDir: overrides.rendererDir ?? defaultRendererDir(), log });
    const server: Server = await new Promise((resolve, reject) => {
      const s = app.listen(config.port, config.host, (err?: Error) => (err ? reject(err) : resolve(s)));
    });
    keepPhonesConnected(server);
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    port = (server.address() as AddressInfo).port;
    cleanup.push(() => Promise.all([services.background.pool.close(), services.background.files.close()]).then(() => undefined));
    services.thumbnailQueue.start();
    cleanup.push(() => services.thumbnailQueue.stop());
    services.photoSync.start();
    cleanup.push(() => services.photoSync.stop());
    services.captureLink.start();
    cleanup.push(() => services.captureLink.stop());
    await services.hardware.start(services.settings.stored().hardware);
    const removeSafety = installRelaySafety(() => hardware.relay.forceOffSync());
    cleanup.push(async () => {
      await services.hardware.stop();
      removeSafety();
    });
    cleanup.push(() => services.restarter.stop());
    // Started last and stopped first: a job in flight is left `printing`, settled with CUPS at the next start.
    carryOverPrintJobs(db, config.dataDir, clock, log);
    services.print.prune();
    services.printWorker.start();
    cleanup.push(() => services.printWorker.stop());
    services.publishing.queue.start();
    cleanup.push(() => services.publishing.queue.stop());

    const lan = `http://${publicHost(config.host)}:${port}`;
    let stopped = false;
    const handle: ServiceHandle = {
      localUrl: `http://127.0.0.1:${port}`,
      adminUrl: `${lan}/admin`,
      galleryUrl: `${lan}/`,
      captureUrl: capture.baseUrl,
      simulator,
      services,
      atRest,
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const step of cleanup.reverse()) await step();
      },
    };
    const exit = overrides.exit ?? ((code: number) => process.exit(code));
    restartSelf =
      overrides.relaunch ??
      (() => {
        handle.stop().then(
          () => exit(RESTART_EXIT_CODE),
          () => exit(RESTART_EXIT_CODE),
        );
      });
    return handle;
  } catch (err) {
    for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => undefined);
    throw err;
  }
}
