import { parseEnvFile } from '../rules/env-file.js';
import { isToken } from '../rules/names.js';
import { readSettings, type DeploySettings } from '../rules/settings.js';
import { readSmall } from './files.js';
import { DeployLog } from './log.js';
import { boothPaths, type BoothPaths } from './paths.js';
import { Systemd } from './systemd.js';
import { hostname } from 'node:os';
import path from 'node:path';

/** What every part of a deploy works with: the booth's layout, its log, settings and systemd. */
export interface Ctx {
  paths: BoothPaths;
  log: DeployLog;
  settings: DeploySettings;
  systemd: Systemd;
  /**
   * How the deploy starts itself again (a detached run, the watcher): through its launcher, which
   * finds the board's Node (the one running now may not be on the path of a unit of systemd).
   */
  self: { launcher: string };
  /** Aborted on SIGTERM: waits end early and the switch settles. */
  signal: AbortSignal;
}

/** The booth owner's settings file (boothdeck.env), read as systemd reads it. */
export const boothEnv = (paths: BoothPaths): Record<string, string> => parseEnvFile(readSmall(paths.envFile) ?? '');
export const fleetEnv = (paths: BoothPaths): Record<string, string> => parseEnvFile(readSmall(paths.fleetEnv) ?? '');

/** The port the running Boothdeck listens on. */
export function livePort(paths: BoothPaths): number {
  const port = Number(boothEnv(paths).BOOTHDECK_PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : 8080;
}

/** Boothdeck's own data folder, where its database lives. */
export function dataDir(paths: BoothPaths): string {
  const dir = boothEnv(paths).BOOTHDECK_DATA_DIR;
  return dir && path.isAbsolute(dir) ? dir : path.join(paths.home, '.config/Boothdeck/data');
}

/** This booth's name on the fleet page: fleet.env's, else the host's. */
export function boothName(paths: BoothPaths): string {
  const name = fleetEnv(paths).BOOTHDECK_BOOTH_NAME ?? hostname();
  return isToken(name) ? name : 'booth';
}

export function makeCtx(home: string, runId: string | undefined, attached: boolean, self: Ctx['self'], signal: AbortSignal): Ctx {
  const paths = boothPaths(home);
  return {
    paths,
    log: new DeployLog(paths, runId, attached),
    settings: readSettings(process.env, fleetEnv(paths)),
    systemd: new Systemd(),
    self,
    signal,
  };
}
