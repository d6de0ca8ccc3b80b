import type { Hardware } from '../native/hardware.js';
import { AttemptLimiter } from './auth/attempt-limiter.js';
import { AuthService, defaultAuthOptions, type AuthOptions } from './auth/auth.service.js';
import { SessionRepository } from './auth/session.repository.js';
import { CaptureLink } from './capture/capture-link.js';
import type { CaptureAppPort } from './capture/capture.port.js';
import type { Clock } from './clock/clock.port.js';
import type { Db } from './db/database.js';
import type { Logger } from './logger.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { StatusService } from './status/status.service.js';
import type { SystemPort } from './system/system.port.js';

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
}

export interface Services {
  ports: Ports;
  auth: AuthService;
  captureLink: CaptureLink;
  status: StatusService;
}

/** Repositories and services, wired once. Nothing here listens or starts a timer. */
export function buildServices(ports: Ports, options: ServiceOptions): Services {
  const settings = new SettingsRepository(ports.db);
  const auth = new AuthService(
    settings,
    new SessionRepository(ports.db),
    new AttemptLimiter(ports.clock),
    ports.clock,
    options.auth ?? defaultAuthOptions,
  );
  const captureLink = new CaptureLink(ports.capture, ports.log);
  const status = new StatusService(options.version, ports.capture, captureLink, ports.hardware, ports.clock);
  return { ports, auth, captureLink, status };
}
