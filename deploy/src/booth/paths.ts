import path from 'node:path';

/** The booth's layout (docs/deployment.md): everything under the booth user's home. */
export interface BoothPaths {
  home: string;
  root: string;
  bin: string;
  releases: string;
  incoming: string;
  runs: string;
  snapshots: string;
  fleet: string;
  dates: string;
  healthy: string;
  failed: string;
  held: string;
  log: string;
  lock: string;
  lockOwner: string;
  journal: string;
  trialPid: string;
  unitDir: string;
  confDir: string;
  envFile: string;
  deployEnv: string;
  fleetEnv: string;
}

export function boothPaths(home: string): BoothPaths {
  const root = path.join(home, 'boothdeck');
  const confDir = path.join(home, '.config/boothdeck');
  return {
    home,
    root,
    bin: path.join(root, 'bin'),
    releases: path.join(root, 'releases'),
    incoming: path.join(root, 'incoming'),
    runs: path.join(root, 'runs'),
    snapshots: path.join(root, 'snapshots'),
    fleet: path.join(root, 'fleet'),
    dates: path.join(root, 'release-dates'),
    healthy: path.join(root, 'healthy'),
    failed: path.join(root, 'failed'),
    held: path.join(root, 'held'),
    log: path.join(root, 'deploy.log'),
    lock: path.join(root, 'deploy.lock'),
    lockOwner: path.join(root, 'deploy.lock.owner'),
    journal: path.join(root, 'deploy.state'),
    trialPid: path.join(root, 'trial.pid'),
    unitDir: path.join(home, '.config/systemd/user'),
    confDir,
    envFile: path.join(confDir, 'boothdeck.env'),
    deployEnv: path.join(confDir, 'deploy.env'),
    fleetEnv: path.join(confDir, 'fleet.env'),
  };
}

export const UNIT = 'boothdeck.service';
export const RECOVER_UNIT = 'boothdeck-recover.service';
export const DB_NAME = 'boothdeck.sqlite';
/** The database and the files SQLite keeps beside it, in the order they are moved aside and back. */
export const DB_FILES = [DB_NAME, `${DB_NAME}-wal`, `${DB_NAME}-shm`] as const;
