import type { Hardware } from '../native/hardware.js';
import { ActionOrderRepository } from './actions/action-order.repository.js';
import { ActionsService } from './actions/actions.service.js';
import { AttemptLimiter } from './auth/attempt-limiter.js';
import { AuthService, defaultAuthOptions, type AuthOptions } from './auth/auth.service.js';
import { SessionRepository } from './auth/session.repository.js';
import { CaptureLink } from './capture/capture-link.js';
import type { CaptureAppPort } from './capture/capture.port.js';
import type { Clock } from './clock/clock.port.js';
import type { Db } from './db/database.js';
import { EventHub } from './live/event-hub.js';
import type { Logger } from './logger.js';
import { PresetRepository } from './presets/preset.repository.js';
import { PresetsService } from './presets/presets.service.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { SettingsService } from './settings/settings.service.js';
import { StatusService } from './status/status.service.js';
import { CaptureRestartService, defaultRestartOptions, type CaptureRestartOptions } from './system/capture-restart.service.js';
import type { SystemPort } from './system/system.port.js';
import { UserFilesService } from './userfiles/userfiles.service.js';

/** Every side effect the service has, each behind a port; real or fake is decided by the caller. */
export interface Ports {
  db: Db;
  capture: CaptureAppPort;
  clock: Clock;
  system: SystemPort;
  hardware: Hardware;
  log: Logger;
}

export interface ServiceOptions {
  version: string;
  auth?: AuthOptions;
  restart?: Partial<CaptureRestartOptions>;
}

export interface Services {
  ports: Ports;
  hub: EventHub;
  auth: AuthService;
  captureLink: CaptureLink;
  status: StatusService;
  restarter: CaptureRestartService;
  actions: ActionsService;
  presets: PresetsService;
  settings: SettingsService;
  userFiles: UserFilesService;
}

/** Repositories and services, wired once. Nothing here listens or starts a timer. */
export function buildServices(ports: Ports, options: ServiceOptions): Services {
  const settingsRepository = new SettingsRepository(ports.db);
  const hub = new EventHub();
  const auth = new AuthService(
    settingsRepository,
    new SessionRepository(ports.db),
    new AttemptLimiter(ports.clock),
    ports.clock,
    options.auth ?? defaultAuthOptions,
  );
  const captureLink = new CaptureLink(ports.capture, ports.log);
  const status = new StatusService(options.version, ports.capture, captureLink, ports.hardware, ports.clock);
  const restarter = new CaptureRestartService(
    ports.capture,
    ports.system,
    ports.clock,
    ports.log,
    { ...defaultRestartOptions, ...options.restart },
    captureLink,
  );
  restarter.onChange((s) => hub.publish('admin', 'restart', s));
  const actions = new ActionsService(ports.capture, new ActionOrderRepository(ports.db), restarter);
  const presets = new PresetsService(new PresetRepository(ports.db), actions, ports.clock);
  const settings = new SettingsService(settingsRepository, ports.capture, restarter);
  const userFiles = new UserFilesService(ports.capture);
  return { ports, hub, auth, captureLink, status, restarter, actions, presets, settings, userFiles };
}
