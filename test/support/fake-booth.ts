import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAKE_NFT } from './fake-nft.js';

export const repo = path.resolve(import.meta.dirname, '../..');
export const LIVE_PORT = 8080;

/**
 * The commands the deploy reaches for, replaced by recording stand-ins written with shell
 * builtins only (each one is a process the deploy starts; they should cost no more). ssh and sudo
 * run their command here with HOME set to the fake board; systemctl "starts" the release `current`
 * points to; curl answers /healthz as the running release or a trial instance would; df reports
 * the free space a test sets; dpkg-query knows the packages in .dpkg/.
 */
const STUBS: Record<string, string> = {
  ssh: `while [ $# -gt 0 ]; do case "$1" in -i|-o) shift 2 ;; -*) shift ;; *) break ;; esac; done
shift
printf 'ssh %s\n' "$*" >>"$FAKE_LOG"
cd "$FAKE_BOARD"
case "$*" in *" receive "*) [ -z "\${FAKE_DISK_FULL_KB:-}" ] || ulimit -f $((FAKE_DISK_FULL_KB * 2)) ;; esac
HOME="$FAKE_BOARD" sh -c "$*"
status=$?
case "$*" in *" receive "*) [ -z "\${FAKE_EVENT_DURING_UPLOAD:-}" ] || echo "true 0" >"$FAKE_BOARD/.event" ;; esac
exit $status`,
  sudo: `printf 'sudo %s\n' "$*" >>"$FAKE_LOG"
[ "$1" = -n ] && shift
case "$1" in
  true) [ -n "\${FAKE_SUDO:-}" ] ;;
  /bin/sh) [ -n "\${FAKE_SUDO:-}" ] || exit 1; shift; BOOTHDECK_SYSROOT="$FAKE_BOARD/.sysroot" sh "$@" ;;
  /usr/local/libexec/boothdeck/*)
    # Only what boothdeck-system installed, with its sudoers line, as root would run it.
    helper="$FAKE_BOARD/.sysroot$1"; shift
    [ -x "$helper" ] && [ -f "$FAKE_BOARD/.sysroot/etc/sudoers.d/boothdeck-fetch" ] || { echo "sudo: a password is required" >&2; exit 1; }
    BOOTHDECK_SYSROOT="$FAKE_BOARD/.sysroot" "$helper" "$@" ;;
  -u) shift 2; cd "$FAKE_BOARD"; HOME="$FAKE_BOARD" "$@" ;;
  env) for a; do case "$a" in apt-get|install|update|-y|--no-install-recommends|env|DEBIAN_FRONTEND=*) ;; *) : >"$FAKE_BOARD/.dpkg/$a" ;; esac; done ;;
  *) exit 1 ;;
esac`,
  systemctl: `printf 'systemctl %s\n' "$*" >>"$FAKE_LOG"
case "$*" in
*boothdeck-firewall.service*)
  # The system manager, for the unit boothdeck-system installs: runs its ExecStart and ExecStop.
  unit="$FAKE_BOARD/.sysroot/etc/systemd/system/boothdeck-firewall.service"
  active="$FAKE_BOARD/.sysroot/.firewall-active"
  case "$*" in
    *is-active*) [ -e "$active" ] ;;
    enable*) [ -f "$unit" ] ;;
    restart*) line=$(grep '^ExecStart=' "$unit") && eval "\${line#ExecStart=}" && : >"$active" ;;
    *--now*) line=$(grep '^ExecStop=' "$unit") && line=\${line#ExecStop=} && eval "\${line#-}"; rm -f "$active" ;;
  esac ;;
*"--user start boothdeck-pull.service"*)
  # The user manager when the pull timer fires: the installed unit's ExecStart, %h its home.
  line=$(grep '^ExecStart=' "$FAKE_BOARD/.config/systemd/user/boothdeck-pull.service") || exit 5
  line=\${line#ExecStart=}
  export HOME="$FAKE_BOARD"
  cd "$FAKE_BOARD" && eval "$(printf '%s' "$line" | sed "s|%h|$FAKE_BOARD|g")" ;;
*" stop "*) : >"$FAKE_BOARD/.running" ;;
*" show "*)
  if [ -e "$FAKE_BOARD/.unit-crashed" ]; then printf 'NRestarts=4\nActiveState=activating\nSubState=auto-restart\n'
  else printf 'NRestarts=0\nActiveState=active\nSubState=running\n'; fi ;;
*restart*)
  target=$(readlink "$FAKE_BOARD/boothdeck/current")
  behaviour='' knows=9 migrate=''
  while IFS= read -r line; do case "$line" in BEHAVIOUR=*) behaviour=$line ;; KNOWS=*) knows=\${line#KNOWS=} ;; MIGRATE=*) migrate=\${line#MIGRATE=} ;; esac; done <"$FAKE_BOARD/boothdeck/$target"
  db="$FAKE_BOARD/.config/Boothdeck/data/boothdeck.sqlite"
  started=1
  [ ! -f "$db" ] || python3 "\${0%/*}/fake-migrate.py" "$db" "$knows" "$migrate" || started=''
  case "$behaviour" in *"'crash'" | *"'live-crash'") started='' ;; esac
  if [ -n "$started" ]; then echo "$target" >"$FAKE_BOARD/.running"; rm -f "$FAKE_BOARD/.unit-crashed"
  else : >"$FAKE_BOARD/.running"; : >"$FAKE_BOARD/.unit-crashed"; fi ;;
esac`,
  loginctl: `printf 'loginctl %s\n' "$*" >>"$FAKE_LOG"`,
  'systemd-run': `printf 'systemd-run %s\n' "$*" >>"$FAKE_LOG"
[ -z "\${FAKE_NO_SYSTEMD_RUN:-}" ] || { echo "Failed to connect to bus: No medium found" >&2; exit 1; }
while [ "$1" != -- ]; do shift; done
shift
# The run leads a session of its own, as in a unit of its own; its output goes where systemd-run's
# went (runs/ID.out), as the journal would have it.
setsid "$@" </dev/null &`,
  curl: `for url; do :; done
case "$url" in http://127.0.0.1:*) ;; *) printf 'curl %s\n' "$*" >>"$FAKE_LOG" && exec /usr/bin/curl "$@" ;; esac
[ ! -e "$FAKE_BOARD/.slow" ] || exit 28
port=\${url#http://127.0.0.1:}; port=\${port%%/*}
answer=''
if [ -f "$FAKE_BOARD/.ports/$port" ]; then
  read -r version pid <"$FAKE_BOARD/.ports/$port"
  ! kill -0 "$pid" 2>/dev/null || answer=$version
elif [ "$port" = "\${FAKE_LIVE_PORT:-8080}" ] && [ -s "$FAKE_BOARD/.running" ]; then
  read -r release <"$FAKE_BOARD/.running"
  while IFS= read -r line; do
    case "$line" in
      VERSION=*) answer=\${line#VERSION=\\'} && answer=\${answer%\\'} ;;
      BEHAVIOUR=\\'wrong:*) answer=\${line#BEHAVIOUR=\\'wrong:} && answer=\${answer%\\'} ;;
    esac
  done <"$FAKE_BOARD/boothdeck/$release"
fi
[ -n "$answer" ] || exit 7
case "$url" in */healthz) ;; *) exit 0 ;; esac
active=false age=null opened=null
[ ! -f "$FAKE_BOARD/.event" ] || read -r active age opened <"$FAKE_BOARD/.event"
printf '{"ok":true,"version":"%s","simulator":false,"event_active":%s,"last_photo_age_seconds":%s,"event_age_seconds":%s}' "$answer" "$active" "$age" "\${opened:-null}"`,
  nft: `exec python3 "\${0%/*}/fake-nft.py" "$@"`,
  df: `printf 'Filesystem 1024-blocks Used Available Capacity Mounted on\\n/dev/root 30000000 1000 %s 1%% /\\n' "\${FAKE_FREE_KB:-20000000}"`,
  'dpkg-query': `format=''
for arg; do case "$arg" in -f=*) format=\${arg#-f=} ;; esac; done
for pkg; do
  case "$pkg" in -*) continue ;; esac
  status=not-installed
  [ ! -e "$FAKE_BOARD/.dpkg/$pkg" ] || status=installed
  line=\${format%%'\${db:Status-Status}'*}$status\${format#*'\${db:Status-Status}'}
  printf '%s' "\${line%%'\${Package}'*}$pkg\${line#*'\${Package}'}"
done`,
};

/**
 * Wraps every stand-in: inside a detached install (BOOTHDECK_RUN_ID), each call that differs from
 * the one before is a step (a poll repeated until something answers is one step, however many
 * times the machine's speed makes it ask), recorded in .steps-ID; at step FAKE_KILL_AT the hook
 * kills the install's whole process group, as a crash at that line would.
 */
const STEP_HOOK = `if [ -n "\${BOOTHDECK_RUN_ID:-}" ]; then
  step="\${0##*/} $*" n=0 last=''
  state="$FAKE_BOARD/.step-$BOOTHDECK_RUN_ID"
  [ ! -f "$state" ] || { read -r n && IFS= read -r last; } <"$state"
  if [ "$step" != "$last" ]; then
    n=$((n + 1))
    printf '%s\\n%s\\n' "$n" "$step" >"$state"
    printf '%s\\n' "$step" >>"$FAKE_BOARD/.steps-$BOOTHDECK_RUN_ID"
    if [ "$n" = "\${FAKE_KILL_AT:-}" ]; then
      printf 'killed at step %s: %s\n' "$n" "$step" >>"$FAKE_LOG"
      read -r _ _ _ _ group _ <"/proc/$$/stat"
      kill -s KILL -- "-$group"
    fi
  fi
fi
`;

/**
 * What the systemctl stand-in does with the live database when it starts a release, as the real
 * migrator would: refuses (the unit crashes) a database with a migration beyond what the release
 * knows that is not backward compatible, then applies the release's own migration, if it has one.
 */
const FAKE_MIGRATE = `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
knows, migrate = int(sys.argv[2]), sys.argv[3]
db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT, backward_compatible INTEGER NOT NULL DEFAULT 0)")
rows = db.execute("SELECT version, backward_compatible FROM schema_migrations").fetchall()
if any(v > knows and not c for v, c in rows):
    sys.exit(3)
if migrate:
    v, c = migrate.split(":")
    db.execute("INSERT OR IGNORE INTO schema_migrations VALUES (?, ?, ?, ?)", (int(v), "m" + v, "now", int(c)))
    db.commit()
`;

export type Behaviour = 'healthy' | 'crash' | 'live-crash' | 'gate' | { reports: string };
export interface Outcome {
  code: number | null;
  out: string;
}

/** A folder standing for the booth (its home), stand-ins for what the deploy calls, and builds to deploy. */
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
      writeFileSync(path.join(this.bin, name), `#!/bin/sh\n${STEP_HOOK}${body}\n`);
      chmodSync(path.join(this.bin, name), 0o755);
    }
    writeFileSync(path.join(this.bin, 'fake-migrate.py'), FAKE_MIGRATE);
    writeFileSync(path.join(this.bin, 'fake-nft.py'), FAKE_NFT);
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
  build(version: string, behaviour: Behaviour = 'healthy', schema: { knows?: number; migrate?: string } = {}): string {
    const file = this.artifact(version);
    const mode = typeof behaviour === 'string' ? behaviour : `wrong:${behaviour.reports}`;
    writeFileSync(
      file,
      `#!/bin/sh
VERSION='${version}'
BEHAVIOUR='${mode}'
KNOWS=${schema.knows ?? 9}
MIGRATE=${schema.migrate ?? ''}
case " $* " in *" --boothdeck-trial "*) ;; *) exit 0 ;; esac
printf '%s\\n' "$*" >"$FAKE_BOARD/.trial-args"
env >"$FAKE_BOARD/.trial-env"
stat -c '%a %n' "$BOOTHDECK_DATA_DIR" "$BOOTHDECK_DATA_DIR"/* >"$FAKE_BOARD/.trial-modes" 2>/dev/null || true
[ "$BEHAVIOUR" != crash ] || { echo "SqliteError: database disk image is malformed" >&2; exit 1; }
[ "$BEHAVIOUR" != gate ] || read -r _ <"$FAKE_BOARD/.gate"
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

  /**
   * Builds those versions into a folder standing for the pipeline's published releases, with
   * boothdeck-release.txt naming the last one as the newest; answers the folder.
   */
  publish(versions: string[]): string {
    const dir = path.join(this.root, 'published');
    mkdirSync(dir, { recursive: true });
    for (const version of versions) copyFileSync(this.build(version), path.join(dir, path.basename(this.artifact(version))));
    const newest = this.artifact(versions.at(-1)!);
    const bytes = readFileSync(newest);
    writeFileSync(
      path.join(dir, 'boothdeck-release.txt'),
      `version=${versions.at(-1)}\nfile=${path.basename(newest)}\nsize=${bytes.length}\nsha256=${createHash('sha256').update(bytes).digest('hex')}\ndate=2026-11-26T18:00:00Z\n`,
    );
    return dir;
  }

  /** The pull timer fires: the user manager starts the installed boothdeck-pull.service (its ExecStart). */
  timerFires(env: Record<string, string> = {}): Promise<Outcome> {
    return this.run(path.join(this.bin, 'systemctl'), ['--user', 'start', 'boothdeck-pull.service'], {
      ...this.env(env),
      HOME: this.board,
      BOOTHDECK_HEALTH_ATTEMPTS: '100',
      BOOTHDECK_HEALTH_WAIT: '0.02',
      ...env,
    });
  }

  /** Where build() writes that version. */
  artifact(version: string): string {
    return path.join(this.artifacts, `Boothdeck-${version}-arm64.AppImage`);
  }

  /**
   * The environment of a deploy: the stand-ins first, then the system's own folders only (a
   * developer's PATH, with its shims and node_modules/.bin, does not change what the deploy finds).
   */
  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: `${this.bin}:/usr/local/bin:/usr/bin:/bin`,
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

  /** Runs scripts/deploy.sh; `cutAfter` closes its output after that many lines, as a dropped link would. */
  deploy(args: string[], env: Record<string, string> = {}, cutAfter?: number): Promise<Outcome> {
    const command = cutAfter === undefined ? 'exec sh "$0" "$@"' : `sh "$0" "$@" 2>&1 | head -n ${cutAfter}`;
    return this.run('sh', ['-c', command, path.join(repo, 'scripts/deploy.sh'), ...args], this.env(env));
  }

  /** Runs the tool the booth keeps in ~/boothdeck/bin (boothdeck-rollback, recover, status). */
  onBooth(command: string, env: Record<string, string> = {}): Promise<Outcome> {
    const [tool, ...args] = command.split(' ');
    return this.run('sh', [this.home('boothdeck/bin', tool!), ...args], {
      ...this.env(env),
      HOME: this.board,
      BOOTHDECK_HEALTH_ATTEMPTS: '100',
      BOOTHDECK_HEALTH_WAIT: '0.02',
      ...env,
    });
  }

  private run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
    const child = spawn(command, args, { env, cwd: this.board, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
  }

  /** The ids of the detached runs that installed (or tried to) that version. */
  runs(version: string): string[] {
    const runs = this.home('boothdeck/runs');
    if (!existsSync(runs)) return [];
    return readdirSync(runs)
      .filter((f) => f.startsWith(`${version}-`) && f.endsWith('.log'))
      .map((f) => f.slice(0, -'.log'.length));
  }

  /** The steps of a detached run (stand-in calls, repeats folded), in order. */
  steps(runId: string): string[] {
    return readFileSync(this.home(`.steps-${runId}`), 'utf8')
      .split('\n')
      .filter(Boolean);
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

  event(lastPhotoAgeSeconds: number | null, openedSecondsAgo?: number): void {
    writeFileSync(this.home('.event'), `true ${lastPhotoAgeSeconds ?? 'null'} ${openedSecondsAgo ?? 'null'}`);
  }

  /** A new fake booth whose board and builds are copies of this one's as they are now (a booth in a known state). */
  clone(): FakeBooth {
    const other = new FakeBooth();
    rmSync(other.board, { recursive: true, force: true });
    copyTree(this.board, other.board);
    rmSync(other.artifacts, { recursive: true, force: true });
    copyTree(this.artifacts, other.artifacts);
    return other;
  }

  /** Stops the trial instances still answering (only processes started from this board) and removes it all. */
  dispose(): void {
    for (const port of existsSync(this.home('.ports')) ? readdirSync(this.home('.ports')) : []) {
      const pid = Number(readFileSync(this.home('.ports', port), 'utf8').split(' ')[1]);
      if (!isRunning(pid) || !readCmdline(pid).includes(this.board)) continue;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** cp -a: links kept as links, modes and times kept (a release must stay executable). */
function copyTree(from: string, to: string): void {
  const { status, stderr } = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (status !== 0) throw new Error(`cp -a ${from} ${to}: ${stderr}`);
}

function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
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

/**
 * Runs fn over the items, at most `limit` at a time (each deploy is a few hundred short processes:
 * more at once only share the same cores), and waits for all of them; then fails with the first
 * failure, if any.
 */
export async function eachConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const failures: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!).catch((error: unknown) => failures.push(error));
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}
