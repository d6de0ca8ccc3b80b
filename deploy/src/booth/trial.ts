import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from '../rules/env-file.js';
import { CLOSED_DIR } from './closed-copies.js';
import { boothEnv, livePort, type Ctx } from './context.js';
import { copyDatabase } from './database.js';
import { readSmall } from './files.js';
import { portTaken, probeHealth } from './health-probe.js';
import { alive, commandLine, sleep, spawnDetached } from './process.js';

/**
 * The trial start: the release started on a spare port beside the running one, with the live
 * settings and a copy of the database it will get, fake hardware (the live one holds the relay and
 * the ring), no printer and no window; it must answer /healthz with its version. The running
 * Boothdeck keeps serving meanwhile.
 */

/** A free port beside the live one (live + 10000, or the next ones that are free). */
async function sparePort(live: number): Promise<number> {
  let port = live + 10000 <= 65535 ? live + 10000 : live - 10000;
  for (let i = 0; i < 20 && (await portTaken(port)); i++) port++;
  return port;
}

/** Stops a trial instance's whole process group (the AppImage's runtime and Electron's children). */
async function stopGroup(pid: number): Promise<void> {
  const signal = (sig: NodeJS.Signals): void => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* gone */
      }
    }
  };
  signal('SIGTERM');
  for (let i = 0; i < 300 && alive(pid); i++) await sleep(50);
  signal('SIGKILL');
}

export async function trialStart(ctx: Ctx, release: string, version: string, databaseFrom: string): Promise<boolean> {
  const { paths, log, settings } = ctx;
  const dir = path.join(paths.root, `trial-${log.runId ?? 'run'}`);
  rmSync(dir, { recursive: true, force: true });
  // Its copy of the database holds the PIN hashes: the whole folder is the booth user's alone.
  mkdirSync(path.join(dir, 'data'), { recursive: true, mode: CLOSED_DIR });
  mkdirSync(path.join(dir, 'config'), { recursive: true, mode: CLOSED_DIR });
  if (existsSync(path.join(databaseFrom, 'boothdeck.sqlite'))) {
    if (copyDatabase(databaseFrom, path.join(dir, 'data'))) log.note('Copied the database for the trial start');
    else log.note('WARNING: the database kept changing while it was copied for the trial start: the trial uses the last copy');
  } else log.note('No database yet: the trial start begins with an empty one');
  const port = await sparePort(livePort(paths));
  log.note(`Trial start of ${version} on port ${port} (live settings, copied data, fake hardware, no printer, no window)`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...parseEnvFile(readSmall(paths.deployEnv) ?? ''), ...boothEnv(paths) };
  for (const key of ['WAYLAND_DISPLAY', 'DISPLAY', 'RUNNER_TRACKING_ID']) delete env[key];
  Object.assign(env, {
    BOOTHDECK_PORT: String(port),
    BOOTHDECK_HOST: '127.0.0.1',
    BOOTHDECK_DATA_DIR: path.join(dir, 'data'),
    BOOTHDECK_HARDWARE: 'fake',
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    CUPS_SERVER: path.join(dir, 'no-cups'),
    NODE_ENV: 'production',
  });
  const output = openSync(path.join(dir, 'output.log'), 'a');
  const pid = spawnDetached(path.join(paths.root, release), ['--boothdeck-trial', '--ozone-platform=headless'], env, output);
  closeSync(output);
  let result: 'ok' | 'exited' | 'silent' = 'silent';
  if (pid) {
    // For the next run, should this one be killed: it stops the instance left behind.
    writeFileSync(paths.trialPid, `${pid}\n`);
    for (let i = 0; i < settings.healthAttempts && !ctx.signal.aborted; i++) {
      if (!alive(pid)) {
        result = 'exited';
        break;
      }
      const probe = await probeHealth(port);
      if (probe.kind === 'answer' && probe.status.version === version) {
        result = 'ok';
        break;
      }
      await sleep(settings.healthWaitMs, ctx.signal);
    }
    await stopGroup(pid);
    rmSync(paths.trialPid, { force: true });
  } else result = 'exited';
  if (result === 'ok') log.note(`Trial start: ${version} answered /healthz on port ${port}: ok`);
  else {
    log.note(
      result === 'exited' ? `Trial start: ${version} exited at start` : `Trial start: ${version} did not answer /healthz on port ${port}`,
    );
    const tail = (readSmall(path.join(dir, 'output.log'), 1 << 20) ?? '').trimEnd().split('\n').slice(-5);
    for (const line of tail) if (line) log.note(`  trial output: ${line.slice(0, 300)}`);
  }
  rmSync(dir, { recursive: true, force: true });
  return result === 'ok';
}

/** A run killed during its trial start leaves that instance running: stopped here (if that process still is one). */
export async function stopLeftoverTrial(ctx: Ctx): Promise<void> {
  const pid = Number(readSmall(ctx.paths.trialPid, 100)?.trim());
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && commandLine(pid).includes('--boothdeck-trial')) {
    ctx.log.note(`Stopping the trial instance an interrupted deploy left running (process ${pid})`);
    await stopGroup(pid);
  }
  rmSync(ctx.paths.trialPid, { force: true });
  for (const f of readdirSync(ctx.paths.root))
    if (f.startsWith('trial-')) rmSync(path.join(ctx.paths.root, f), { recursive: true, force: true });
}
