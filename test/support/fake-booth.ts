import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repo = path.resolve(import.meta.dirname, '../..');
export const LIVE_PORT = 8080;

/**
 * The commands the deploy reaches for, replaced by recording stand-ins. ssh and sudo run their
 * command here with HOME set to the fake board; systemctl "starts" the release `current` points
 * to; curl answers /healthz as the running release or a trial instance would; df reports the
 * free space a test sets; dpkg-query knows the packages in .dpkg/. A stand-in called by the
 * detached install counts its calls and, at FAKE_KILL_AT, kills the install's whole process group
 * (a crash at that line).
 */
const STUBS: Record<string, string> = {
  ssh: `while [ $# -gt 0 ]; do case "$1" in -i|-o) shift 2 ;; -*) shift ;; *) break ;; esac; done
shift
echo "ssh $*" >>"$FAKE_LOG"
cd "$FAKE_BOARD"
case "$*" in *" receive "*) [ -z "\${FAKE_DISK_FULL_KB:-}" ] || ulimit -f $((FAKE_DISK_FULL_KB * 2)) ;; esac
HOME="$FAKE_BOARD" sh -c "$*"
status=$?
case "$*" in *" receive "*) [ -z "\${FAKE_EVENT_DURING_UPLOAD:-}" ] || echo "true 0" >"$FAKE_BOARD/.event" ;; esac
exit $status`,
  sudo: `echo "sudo $*" >>"$FAKE_LOG"
[ "$1" = -n ] && shift
case "$1" in
  true) [ -n "\${FAKE_SUDO:-}" ] ;;
  -H) shift 4; cd "$FAKE_BOARD"; HOME="$FAKE_BOARD" "$@" ;;
  env) for a; do case "$a" in apt-get|install|update|-y|--no-install-recommends|env|DEBIAN_FRONTEND=*) ;; *) : >"$FAKE_BOARD/.dpkg/$a" ;; esac; done ;;
  *) exit 1 ;;
esac`,
  systemctl: `echo "systemctl $*" >>"$FAKE_LOG"
case "$*" in *restart*)
  target=$(readlink "$FAKE_BOARD/boothdeck/current")
  if grep -q "BEHAVIOUR='\\(crash\\|live-crash\\)'" "$FAKE_BOARD/boothdeck/$target"; then : >"$FAKE_BOARD/.running"; else echo "$target" >"$FAKE_BOARD/.running"; fi ;;
esac`,
  loginctl: `echo "loginctl $*" >>"$FAKE_LOG"`,
  'systemd-run': `echo "systemd-run $*" >>"$FAKE_LOG"
[ -z "\${FAKE_NO_SYSTEMD_RUN:-}" ] || { echo "Failed to connect to bus: No medium found" >&2; exit 1; }
while [ "$1" != -- ]; do shift; done
shift
# The detached run says its own process id (setsid may fork) before the stand-in returns.
setsid sh -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"; exec "$@"' "$FAKE_BOARD/.job.$$" "$@" </dev/null >/dev/null 2>&1 &
until [ -s "$FAKE_BOARD/.job.$$" ]; do :; done
cat "$FAKE_BOARD/.job.$$" >>"$FAKE_BOARD/.jobs"
rm -f "$FAKE_BOARD/.job.$$"`,
  curl: `for url; do :; done
port=\${url#http://127.0.0.1:}; port=\${port%%/*}
answer=''
if [ -f "$FAKE_BOARD/.ports/$port" ]; then
  read -r version pid <"$FAKE_BOARD/.ports/$port"
  kill -0 "$pid" 2>/dev/null && answer=$version
elif [ "$port" = "\${FAKE_LIVE_PORT:-8080}" ] && [ -s "$FAKE_BOARD/.running" ]; then
  release="$FAKE_BOARD/boothdeck/$(cat "$FAKE_BOARD/.running")"
  answer=$(sed -n "s/^VERSION='\\(.*\\)'$/\\1/p" "$release")
  behaviour=$(sed -n "s/^BEHAVIOUR='\\(.*\\)'$/\\1/p" "$release")
  case "$behaviour" in wrong:*) answer=\${behaviour#wrong:} ;; esac
fi
[ -n "$answer" ] || exit 7
case "$url" in */healthz) ;; *) exit 0 ;; esac
set -- $(cat "$FAKE_BOARD/.event" 2>/dev/null || echo false null)
printf '{"ok":true,"version":"%s","simulator":false,"event_active":%s,"last_photo_age_seconds":%s}' "$answer" "$1" "$2"`,
  df: `printf 'Filesystem 1024-blocks Used Available Capacity Mounted on\\n/dev/root 30000000 1000 %s 1%% /\\n' "\${FAKE_FREE_KB:-20000000}"`,
  'dpkg-query': `for pkg; do :; done
if [ -e "$FAKE_BOARD/.dpkg/$pkg" ]; then printf installed; else printf not-installed; fi`,
};

/** Wraps every stub: inside a detached install, the Nth call kills the install (FAKE_KILL_AT). */
const KILL_HOOK = `if [ -n "\${BOOTHDECK_RUN_ID:-}" ] && [ -n "\${FAKE_KILL_AT:-}" ]; then
  n=$(( $(cat "$FAKE_BOARD/.calls" 2>/dev/null || echo 0) + 1 )); echo $n >"$FAKE_BOARD/.calls"
  if [ "$n" = "$FAKE_KILL_AT" ]; then echo "killed at call $n: $(basename "$0") $*" >>"$FAKE_LOG"; kill -s KILL -- -$(cut -d" " -f5 /proc/$$/stat); fi
fi
`;

export type Behaviour = 'healthy' | 'crash' | 'live-crash' | 'gate' | { reports: string };

export class FakeBooth {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-deploy-'));
  readonly board = path.join(this.root, 'board');
  readonly bin = path.join(this.root, 'bin');
  readonly artifacts = path.join(this.root, 'release');
  readonly log = path.join(this.root, 'calls.log');

  constructor() {
    for (const dir of [this.board, this.bin, this.artifacts, this.home('.dpkg'), this.home('.ports')]) mkdirSync(dir, { recursive: true });
    writeFileSync(this.log, '');
    for (const [name, body] of Object.entries(STUBS)) {
      writeFileSync(path.join(this.bin, name), `#!/bin/sh\n${KILL_HOOK}${body}\n`);
      chmodSync(path.join(this.bin, name), 0o755);
    }
    for (const pkg of ['ffmpeg', 'libfuse2']) this.installed(pkg);
  }

  home(...parts: string[]): string {
    return path.join(this.board, ...parts);
  }

  installed(pkg: string, present = true): void {
    if (present) writeFileSync(this.home('.dpkg', pkg), '');
    else rmSync(this.home('.dpkg', pkg), { force: true });
  }

  /** A stand-in AppImage: a script that, started for the trial, answers on its port until stopped. */
  build(version: string, behaviour: Behaviour = 'healthy'): string {
    const file = path.join(this.artifacts, `Boothdeck-${version}-arm64.AppImage`);
    const mode = typeof behaviour === 'string' ? behaviour : `wrong:${behaviour.reports}`;
    writeFileSync(
      file,
      `#!/bin/sh
VERSION='${version}'
BEHAVIOUR='${mode}'
case " $* " in *" --boothdeck-trial "*) ;; *) exit 0 ;; esac
printf '%s\\n' "$*" >"$FAKE_BOARD/.trial-args"
env >"$FAKE_BOARD/.trial-env"
[ "$BEHAVIOUR" != crash ] || { echo "SqliteError: database disk image is malformed" >&2; exit 1; }
if [ "$BEHAVIOUR" = gate ]; then : >"$FAKE_BOARD/.gate-waiting"; cat "$FAKE_BOARD/.gate" >/dev/null; fi
reported=$VERSION
case "$BEHAVIOUR" in wrong:*) reported=\${BEHAVIOUR#wrong:} ;; esac
trap 'rm -f "$FAKE_BOARD/.ports/$BOOTHDECK_PORT"; exit 0' TERM
echo "$reported $$" >"$FAKE_BOARD/.ports/$BOOTHDECK_PORT"
tail -f /dev/null & wait $!
`,
    );
    chmodSync(file, 0o755);
    return file;
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: `${this.bin}:${process.env.PATH ?? ''}`,
      LANG: 'C',
      FAKE_BOARD: this.board,
      FAKE_LOG: this.log,
      BOOTH_HOST: 'booth.local',
      BOOTH_USER: 'pi',
      BOOTH_SSH_KEY: 'not a real key',
      BOOTH_KNOWN_HOSTS: 'booth.local ssh-ed25519 AAAA',
      BOOTH_HEALTH_ATTEMPTS: '100',
      BOOTH_HEALTH_WAIT: '0.02',
      BOOTHDECK_FOLLOW_INTERVAL: '0.05',
      ...extra,
    };
  }

  deploy(args: string[], env: Record<string, string> = {}): { code: number | null; out: string } {
    const result = spawnSync('sh', [path.join(repo, 'scripts/deploy.sh'), ...args], { encoding: 'utf8', env: this.env(env) });
    return { code: result.status, out: result.stdout + result.stderr };
  }

  /** The same, in the background; `cutAfter` closes its output after that many lines, as a dropped link would. */
  deployAsync(args: string[], env: Record<string, string> = {}, cutAfter?: number): Promise<{ code: number | null; out: string }> {
    const command = cutAfter === undefined ? 'sh "$0" "$@"' : `sh "$0" "$@" 2>&1 | head -n ${cutAfter}`;
    const child = spawn('sh', ['-c', command, path.join(repo, 'scripts/deploy.sh'), ...args], { env: this.env(env) });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
  }

  /** Runs the tool the booth keeps in ~/boothdeck/bin (boothdeck-rollback, recover, status). */
  onBooth(command: string, env: Record<string, string> = {}): { code: number | null; out: string } {
    const result = spawnSync('sh', [this.home('boothdeck/bin', command.split(' ')[0]!), ...command.split(' ').slice(1)], {
      encoding: 'utf8',
      cwd: this.board,
      env: { ...this.env(env), HOME: this.board, BOOTHDECK_HEALTH_ATTEMPTS: '100', BOOTHDECK_HEALTH_WAIT: '0.02' },
    });
    return { code: result.status, out: result.stdout + result.stderr };
  }

  /** Detached installs started through systemd-run that are still running. */
  pendingJobs(): number[] {
    const file = this.home('.jobs');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number).filter(isRunning);
  }

  calls(): string[] {
    return readFileSync(this.log, 'utf8').split('\n').filter(Boolean);
  }

  link(name: 'current' | 'previous'): string | undefined {
    try {
      return readlinkSync(this.home('boothdeck', name));
    } catch {
      return undefined;
    }
  }

  /** The version answering on the live port, as the curl stand-in sees it. */
  liveVersion(): string | undefined {
    const running = existsSync(this.home('.running')) ? readFileSync(this.home('.running'), 'utf8').trim() : '';
    if (!running) return undefined;
    const script = readFileSync(this.home('boothdeck', running), 'utf8');
    if (/BEHAVIOUR='(crash|live-crash)'/.test(script)) return undefined;
    return /^VERSION='(.*)'$/m.exec(script)?.[1];
  }

  deployLog(): string {
    return existsSync(this.home('boothdeck/deploy.log')) ? readFileSync(this.home('boothdeck/deploy.log'), 'utf8') : '';
  }

  leftovers(): string[] {
    const incoming = this.home('boothdeck/incoming');
    const found = existsSync(incoming) ? readdirSync(incoming, { recursive: true }).map(String) : [];
    const trials = readdirSync(this.home('boothdeck')).filter((f) => f.startsWith('trial'));
    return [...found, ...trials];
  }

  event(lastPhotoAgeSeconds: number): void {
    writeFileSync(this.home('.event'), `true ${lastPhotoAgeSeconds}`);
  }

  /** Copies the board as it is now (a booth in a known state) into another fake booth. */
  cloneInto(other: FakeBooth): void {
    rmSync(other.board, { recursive: true, force: true });
    spawnSync('cp', ['-a', this.board, other.board]);
    rmSync(other.home('.jobs'), { force: true });
    for (const file of readdirSync(this.artifacts)) spawnSync('cp', ['-a', path.join(this.artifacts, file), other.artifacts]);
  }

  dispose(): void {
    for (const port of existsSync(this.home('.ports')) ? readdirSync(this.home('.ports')) : []) {
      const pid = Number(readFileSync(this.home('.ports', port), 'utf8').split(' ')[1]);
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Alive and not a zombie (the stand-ins' detached processes are nobody's children here). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}
