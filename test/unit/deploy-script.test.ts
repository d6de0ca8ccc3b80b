import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');

/**
 * Commands the deploy script reaches for, replaced by recording stubs: ssh runs the remote
 * command locally with HOME set to the fake board, scp copies into it, systemctl "starts" the
 * release `current` points to, and curl answers /healthz as that release would.
 */
const STUBS: Record<string, string> = {
  ssh: `echo "ssh $*" >>"$FAKE_LOG"
while [ $# -gt 0 ]; do case "$1" in -i|-o) shift 2 ;; -*) shift ;; *) break ;; esac; done
shift
cd "$FAKE_BOARD" && HOME="$FAKE_BOARD" exec sh -c "$*"`,
  scp: `echo "scp $*" >>"$FAKE_LOG"
for last; do :; done
dest="$FAKE_BOARD/\${last#*:}"
while [ $# -gt 1 ]; do case "$1" in -i|-o) shift 2; continue ;; esac; cp "$1" "$dest" || exit 1; shift; done`,
  systemctl: `echo "systemctl $*" >>"$FAKE_LOG"
case "$*" in *restart*) readlink "$FAKE_BOARD/boothdeck/current" >"$FAKE_BOARD/.running" ;; esac`,
  loginctl: `echo "loginctl $*" >>"$FAKE_LOG"`,
  curl: `echo "curl $*" >>"$FAKE_LOG"
running=$(cat "$FAKE_BOARD/.running" 2>/dev/null) || exit 7
[ -n "$running" ] || exit 7
content=$(cat "$FAKE_BOARD/boothdeck/$running")
case "$content" in version=*) version=\${content#version=} ;; *) exit 7 ;; esac
set -- $(cat "$FAKE_BOARD/.event" 2>/dev/null || echo false null)
printf '{"ok":true,"version":"%s","simulator":false,"event_active":%s,"last_photo_age_seconds":%s}' "$version" "$1" "$2"`,
};

let root: string;
let board: string;
let bin: string;
let log: string;
let artifacts: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-deploy-'));
  board = path.join(root, 'board');
  bin = path.join(root, 'bin');
  artifacts = path.join(root, 'release');
  log = path.join(root, 'calls.log');
  for (const dir of [board, bin, artifacts]) mkdirSync(dir);
  writeFileSync(log, '');
  for (const [name, body] of Object.entries(STUBS)) {
    writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in AppImage: what the fake curl reports once systemctl has "started" it. */
function build(version: string, behaviour: 'healthy' | 'broken' | { reports: string } = 'healthy'): string {
  const file = path.join(artifacts, `Boothdeck-${version}-arm64.AppImage`);
  const content = behaviour === 'healthy' ? `version=${version}` : behaviour === 'broken' ? 'broken' : `version=${behaviour.reports}`;
  writeFileSync(file, content);
  return file;
}

function deploy(appImage: string, env: Record<string, string> = {}) {
  const result = spawnSync('sh', [path.join(repo, 'scripts/deploy.sh'), appImage], {
    encoding: 'utf8',
    env: {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      FAKE_BOARD: board,
      FAKE_LOG: log,
      BOOTH_HOST: 'booth.local',
      BOOTH_USER: 'pi',
      BOOTH_SSH_KEY: 'not a real key',
      BOOTH_KNOWN_HOSTS: 'booth.local ssh-ed25519 AAAA',
      BOOTH_HEALTH_ATTEMPTS: '3',
      BOOTH_HEALTH_WAIT: '0',
      ...env,
    },
  });
  return { code: result.status, out: result.stdout + result.stderr };
}

const calls = (): string[] => readFileSync(log, 'utf8').split('\n').filter(Boolean);
const current = (): string => readlinkSync(path.join(board, 'boothdeck/current'));
const home = (...parts: string[]): string => path.join(board, ...parts);
const duringEvent = (lastPhotoAgeSeconds: number): void => writeFileSync(home('.event'), `true ${lastPhotoAgeSeconds}`);

describe('scripts/deploy.sh against a fake board', () => {
  it('first deploy: creates the folders, installs the unit and env file, enables lingering, starts the new version', () => {
    const { code, out } = deploy(build('0.1.0-gaaaaaaa'));
    expect(code, out).toBe(0);
    expect(current()).toBe('releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
    expect(statSync(home('boothdeck/releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage')).mode & 0o111).not.toBe(0);
    expect(readFileSync(home('.config/systemd/user/boothdeck.service'), 'utf8')).toBe(
      readFileSync(path.join(repo, 'deploy/boothdeck.service'), 'utf8'),
    );
    const envFile = home('.config/boothdeck/boothdeck.env');
    expect(readFileSync(envFile, 'utf8')).toContain('BOOTHDECK_CAPTURE_URL=http://127.0.0.1:8000');
    expect(statSync(envFile).mode & 0o077).toBe(0); // the PIN lives there
    expect(calls()).toEqual(
      expect.arrayContaining([
        `loginctl enable-linger ${os.userInfo().username}`,
        'systemctl --user daemon-reload',
        'systemctl --user enable boothdeck.service',
        'systemctl --user restart boothdeck.service',
      ]),
    );
    expect(out).toContain('Boothdeck 0.1.0-gaaaaaaa is up');
    expect(existsSync(home('boothdeck/deploy.log'))).toBe(true);
  });

  it('update: a new file beside the old one, switched atomically, the env file left as the team edited it', () => {
    expect(deploy(build('0.1.0-gaaaaaaa')).code).toBe(0);
    writeFileSync(home('.config/boothdeck/boothdeck.env'), 'BOOTHDECK_ADMIN_PIN=2468\nBOOTHDECK_PORT=8080\n');
    const { code, out } = deploy(build('0.1.0-gbbbbbbb'));
    expect(code, out).toBe(0);
    expect(current()).toBe('releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage');
    expect(readlinkSync(home('boothdeck/previous'))).toBe('releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
    expect(existsSync(home('boothdeck/releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage'))).toBe(true);
    expect(readFileSync(home('.config/boothdeck/boothdeck.env'), 'utf8')).toBe('BOOTHDECK_ADMIN_PIN=2468\nBOOTHDECK_PORT=8080\n');
    expect(existsSync(home('boothdeck/current.new'))).toBe(false);
  });

  it('a release that never answers is rolled back to the previous one', () => {
    expect(deploy(build('0.1.0-gaaaaaaa')).code).toBe(0);
    writeFileSync(log, '');
    const { code, out } = deploy(build('0.1.0-gbbbbbbb', 'broken'));
    expect(code).not.toBe(0);
    expect(out).toContain('did not report version 0.1.0-gbbbbbbb');
    expect(out).toContain('ROLLED BACK to releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage, which answers');
    expect(current()).toBe('releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
    expect(calls().filter((c) => c === 'systemctl --user restart boothdeck.service')).toHaveLength(2);
  });

  it('a 200 from the old version is not success: only the new version on /healthz counts', () => {
    expect(deploy(build('0.1.0-gaaaaaaa')).code).toBe(0);
    const { code, out } = deploy(build('0.1.0-gbbbbbbb', { reports: '0.1.0-gaaaaaaa' }));
    expect(code).not.toBe(0);
    expect(out).toContain('ROLLED BACK');
    expect(current()).toBe('releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
  });

  it('refuses to restart during an event with a photo in the last 30 minutes, and says so', () => {
    expect(deploy(build('0.1.0-gaaaaaaa')).code).toBe(0);
    duringEvent(10 * 60);
    writeFileSync(log, '');
    const { code, out } = deploy(build('0.1.0-gbbbbbbb'), { GITHUB_ACTIONS: 'true' });
    expect(code).toBe(75);
    expect(out).toContain('REFUSED: an event is under way on the booth (last photo 10 min ago');
    expect(out).toContain('::error title=Deploy refused::');
    expect(current()).toBe('releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
    expect(calls().some((c) => c.startsWith('scp') || c.includes('restart'))).toBe(false);
    expect(readFileSync(home('boothdeck/deploy.log'), 'utf8')).toContain('REFUSED');
  });

  it('restarts during an event when forced, and logs that it was forced', () => {
    expect(deploy(build('0.1.0-gaaaaaaa')).code).toBe(0);
    duringEvent(5 * 60);
    const { code, out } = deploy(build('0.1.0-gbbbbbbb'), { BOOTH_FORCE: '1' });
    expect(code, out).toBe(0);
    expect(out).toContain('FORCED: an event is under way (last photo 5 min ago)');
    expect(current()).toBe('releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage');
  });

  it('an event whose last photo is older than 30 minutes does not block the deploy', () => {
    expect(deploy(build('0.1.0-gaaaaaaa')).code).toBe(0);
    duringEvent(45 * 60);
    const { code, out } = deploy(build('0.1.0-gbbbbbbb'));
    expect(code, out).toBe(0);
    expect(current()).toBe('releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage');
  });

  it('refuses a file that is not a Boothdeck arm64 AppImage before touching the booth', () => {
    const other = path.join(artifacts, 'something.AppImage');
    writeFileSync(other, 'x');
    expect(deploy(other).code).toBe(64);
    expect(calls()).toEqual([]);
  });
});
