import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FAKE_NFT } from './fake-nft.js';
import { fakeReleaseProgram } from './fake-release.js';
import { FakeSystemd } from './fake-systemd.js';
import { startStaticServer } from './static-server.js';

export const repo = path.resolve(import.meta.dirname, '../..');

/** Asks the fake user manager over its socket: the arguments, then the caller's environment. */
const ASK_SYSTEMD = (route: string): string => `nl='
'
out=$({ printf '%s\\n' "$@"; printf '\\n\\000\\n'; env -0; } | /usr/bin/curl -sS --max-time 300 --unix-socket "$FAKE_SYSTEMD" --data-binary @- http://systemd/${route}) || exit 1
code=\${out%%"$nl"*}
case "$out" in *"$nl"*) body=\${out#*"$nl"} ;; *) body='' ;; esac
[ -z "$body" ] || printf '%s\\n' "$body"
exit "$code"`;

/**
 * The commands the deploy reaches for besides the user manager, replaced by recording stand-ins:
 * ssh and sudo run their command here with HOME set to the fake board; df reports the free space a
 * test sets; dpkg-query knows the packages in .dpkg/.
 */
const STUBS: Record<string, string> = {
  ssh: `while [ $# -gt 0 ]; do case "$1" in -i|-o) shift 2 ;; -*) shift ;; *) break ;; esac; done
shift
printf 'ssh %s\\n' "$*" >>"$FAKE_LOG"
cd "$FAKE_BOARD"
case "$*" in *" receive "*) [ -z "\${FAKE_DISK_FULL_KB:-}" ] || ulimit -f $((FAKE_DISK_FULL_KB * 2)) ;; esac
HOME="$FAKE_BOARD" sh -c "$*"
status=$?
case "$*" in *" receive "*) [ -z "\${FAKE_EVENT_DURING_UPLOAD:-}" ] || echo "true 0" >"$FAKE_BOARD/.event" ;; esac
exit $status`,
  sudo: `printf 'sudo %s\\n' "$*" >>"$FAKE_LOG"
[ "$1" = -n ] && shift
case "$1" in
  true) [ -n "\${FAKE_SUDO:-}" ] ;;
  /usr/local/libexec/boothdeck/boothdeck-fetch)
    # Only what boothdeck-system installed, with its sudoers line, as root would run it.
    helper="$FAKE_BOARD/.sysroot$1"; shift
    [ -x "$helper" ] && [ -f "$FAKE_BOARD/.sysroot/etc/sudoers.d/boothdeck-fetch" ] || { echo "sudo: a password is required" >&2; exit 1; }
    BOOTHDECK_SYSROOT="$FAKE_BOARD/.sysroot" "$helper" "$@" ;;
  /usr/local/libexec/boothdeck/*)
    [ -n "\${FAKE_SUDO:-}" ] || exit 1
    helper="$FAKE_BOARD/.sysroot$1"; shift
    [ -x "$helper" ] || { echo "sudo: $helper: command not found" >&2; exit 1; }
    BOOTHDECK_SYSROOT="$FAKE_BOARD/.sysroot" "$helper" "$@" ;;
  -u) shift 2; cd "$FAKE_BOARD"; HOME="$FAKE_BOARD" "$@" ;;
  env) [ -n "\${FAKE_SUDO:-}" ] || exit 1; for a; do case "$a" in apt-get|install|update|-y|--no-install-recommends|env|DEBIAN_FRONTEND=*) ;; *) : >"$FAKE_BOARD/.dpkg/$a" ;; esac; done ;;
  *) exit 1 ;;
esac`,
  systemctl: ASK_SYSTEMD('systemctl'),
  'systemd-run': ASK_SYSTEMD('systemd-run'),
  loginctl: `printf 'loginctl %s\\n' "$*" >>"$FAKE_LOG"`,
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

export type Behaviour = 'healthy' | 'crash' | 'live-crash' | 'hang' | 'gate' | `dies-after:${number}` | { reports: string };
export interface Outcome {
  code: number | null;
  out: string;
}

let kit: Promise<string> | undefined;
/** The deploy kit (dist/deploy's content), built once per test process into a folder of its own. */
export function deployKit(): Promise<string> {
  kit ??= new Promise((resolve, reject) => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kit-'));
    const child = spawn(process.execPath, [path.join(repo, 'scripts/build-deploy.mjs'), out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`build-deploy failed: ${err}`))));
  });
  return kit;
}

/** A live port whose trial twin (+ 10000) is free too, below the kernel's ephemeral range. */
async function freePortPair(): Promise<number> {
  const free = (port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  for (;;) {
    const port = 11000 + Math.floor(Math.random() * 10000);
    if ((await free(port)) && (await free(port + 10000))) return port;
  }
}

/** A folder standing for the booth (its home), stand-ins for what the deploy calls, and builds to deploy. */
export class FakeBooth {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-deploy-'));
  readonly board = path.join(this.root, 'board');
  readonly bin = path.join(this.root, 'bin');
  readonly artifacts = path.join(this.root, 'release');
  readonly log = path.join(this.root, 'calls.log');
  readonly systemd: FakeSystemd;
  port = 0;
  kit = '';
  private store: { url: string; close(): Promise<void> } | undefined;

  private constructor() {
    for (const dir of [this.board, this.bin, this.artifacts, this.home('.dpkg'), this.home('.config/boothdeck')])
      mkdirSync(dir, { recursive: true });
    writeFileSync(this.log, '');
    for (const [name, body] of Object.entries(STUBS)) {
      writeFileSync(path.join(this.bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(path.join(this.bin, name), 0o755);
    }
    // The board's own Node when the run asks for one (BOOTHDECK_TEST_NODE: Debian's 18, as on the booth).
    if (process.env.BOOTHDECK_TEST_NODE) {
      writeFileSync(path.join(this.bin, 'node'), `#!/bin/sh\nexec ${process.env.BOOTHDECK_TEST_NODE} "$@"\n`);
      chmodSync(path.join(this.bin, 'node'), 0o755);
    }
    writeFileSync(path.join(this.bin, 'fake-nft.py'), FAKE_NFT);
    writeFileSync(path.join(this.bin, 'fake-release.cjs'), fakeReleaseProgram(path.join(repo, 'node_modules/better-sqlite3')));
    for (const pkg of ['ffmpeg', 'libfuse2']) this.installed(pkg);
    this.systemd = new FakeSystemd(this.board, () => this.env(), this.log, this.root, this.home('.sysroot'));
  }

  /** A new fake board with a live port of its own, its user manager listening. */
  static async create(): Promise<FakeBooth> {
    const booth = new FakeBooth();
    booth.port = await freePortPair();
    booth.kit = await deployKit();
    writeFileSync(booth.home('.config/boothdeck/boothdeck.env'), `BOOTHDECK_PORT=${booth.port}\n`);
    await booth.systemd.listen();
    return booth;
  }

  home(...parts: string[]): string {
    return path.join(this.board, ...parts);
  }

  installed(pkg: string, present = true): void {
    if (present) writeFileSync(this.home('.dpkg', pkg), '');
    else rmSync(this.home('.dpkg', pkg), { force: true });
  }

  /** A stand-in AppImage: a script that runs the fake release program (fake-release.ts) as that version. */
  build(version: string, behaviour: Behaviour = 'healthy', schema: { knows?: number; migrate?: string } = {}): string {
    const file = this.artifact(version);
    const mode = typeof behaviour === 'string' ? behaviour : `wrong:${behaviour.reports}`;
    writeFileSync(
      file,
      `#!/bin/sh\n# fake-release\nexec "$FAKE_NODE" "$FAKE_RELEASE" '${version}' '${mode}' '${schema.knows ?? 9}' '${schema.migrate ?? ''}' "$@"\n`,
    );
    chmodSync(file, 0o755);
    return file;
  }

  /**
   * Builds those versions into a folder standing for the pipeline's published releases, served
   * over HTTP on loopback, with boothdeck-release.txt naming the last one as the newest; writes
   * fleet.env to pull from there; answers the folder.
   */
  async publish(versions: string[], fleetEnv = 'BOOTHDECK_BOOTH_NAME=salle-a\n'): Promise<string> {
    const dir = path.join(this.root, 'published');
    mkdirSync(dir, { recursive: true });
    for (const version of versions) copyFileSync(this.build(version), path.join(dir, path.basename(this.artifact(version))));
    const newest = this.artifact(versions.at(-1)!);
    const bytes = readFileSync(newest);
    writeFileSync(
      path.join(dir, 'boothdeck-release.txt'),
      `version=${versions.at(-1)}\nfile=${path.basename(newest)}\nsize=${bytes.length}\nsha256=${createHash('sha256').update(bytes).digest('hex')}\ndate=2026-11-26T18:00:00Z\n`,
    );
    this.store ??= await startStaticServer(dir);
    writeFileSync(this.home('.config/boothdeck/fleet.env'), `${fleetEnv}BOOTHDECK_RELEASES_URL=${this.store.url}\n`);
    return dir;
  }

  /** The pull timer fires: the user manager runs the installed boothdeck-pull.service (its ExecStart) to its end. */
  timerFires(env: Record<string, string> = {}): Promise<Outcome> {
    return this.systemd.runOneshot('boothdeck-pull.service', {
      BOOTHDECK_HEALTH_ATTEMPTS: '200',
      BOOTHDECK_HEALTH_WAIT: '0.05',
      BOOTHDECK_WATCH_SECONDS: '1',
      BOOTHDECK_GUARD_GAP_SECONDS: '2',
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
      TMPDIR: os.tmpdir(),
      FAKE_BOARD: this.board,
      FAKE_LOG: this.log,
      FAKE_SYSTEMD: this.systemd.socket,
      FAKE_RELEASE: path.join(this.bin, 'fake-release.cjs'),
      // The fake releases run on the tests' Node (its better-sqlite3), whichever Node the deploy runs on.
      FAKE_NODE: process.execPath,
      BOOTH_HOST: 'booth.local',
      BOOTH_USER: 'pi',
      BOOTH_SSH_KEY: 'not a real key',
      BOOTH_KNOWN_HOSTS: 'booth.local ssh-ed25519 AAAA',
      BOOTH_KIT: this.kit,
      BOOTH_HEALTH_ATTEMPTS: '200',
      BOOTH_HEALTH_WAIT: '0.05',
      BOOTH_WATCH_SECONDS: '1',
      BOOTH_GUARD_GAP_SECONDS: '2',
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
      BOOTHDECK_HEALTH_ATTEMPTS: '200',
      BOOTHDECK_HEALTH_WAIT: '0.05',
      BOOTHDECK_WATCH_SECONDS: '1',
      BOOTHDECK_GUARD_GAP_SECONDS: '2',
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

  /** The version answering /healthz on the live port now (undefined when nothing does). */
  liveVersion(): Promise<string | undefined> {
    return new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: this.port, path: '/healthz', agent: false, timeout: 8000 }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          try {
            resolve((JSON.parse(body) as { version?: string }).version);
          } catch {
            resolve(undefined);
          }
        });
      });
      req.on('error', () => resolve(undefined));
      req.on('timeout', () => req.destroy());
    });
  }

  /** The fake releases running now, started from this board: the unit's and trial instances. */
  releaseProcesses(): { pid: number; trial: boolean; version: string }[] {
    return readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .flatMap((p) => {
        const argv = readCmdline(Number(p)).split('\0');
        if (!argv.includes(path.join(this.bin, 'fake-release.cjs')) || !isRunning(Number(p))) return [];
        const i = argv.indexOf(path.join(this.bin, 'fake-release.cjs'));
        return [{ pid: Number(p), trial: argv.includes('--boothdeck-trial'), version: argv[i + 1] ?? '' }];
      });
  }

  deployLog(): string {
    return existsSync(this.home('boothdeck/deploy.log')) ? readFileSync(this.home('boothdeck/deploy.log'), 'utf8') : '';
  }

  /** This booth's line of the fleet page, as it wrote it last. */
  fleetEntry(name = 'salle-a'): Record<string, string> | undefined {
    const file = this.home(`boothdeck/fleet/${name}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : undefined;
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

  /**
   * A new fake board whose board and builds are copies of this one's as they are now, with a live
   * port of its own: the unit runs there as it runs here (a booth in a known state).
   */
  async clone(): Promise<FakeBooth> {
    const other = new FakeBooth();
    rmSync(other.board, { recursive: true, force: true });
    copyTree(this.board, other.board);
    rmSync(other.artifacts, { recursive: true, force: true });
    copyTree(this.artifacts, other.artifacts);
    other.port = await freePortPair();
    other.kit = this.kit;
    const envFile = other.home('.config/boothdeck/boothdeck.env');
    writeFileSync(envFile, readFileSync(envFile, 'utf8').replace(/^BOOTHDECK_PORT=.*$/m, `BOOTHDECK_PORT=${other.port}`));
    for (const f of ['.trial-args', '.trial-env', '.trial-modes']) rmSync(other.home(f), { force: true });
    await other.systemd.listen();
    if (this.systemd.show('boothdeck.service').active === 'active') {
      await other.systemd.startUnit('boothdeck.service');
      await other.waitFor(async () => (await other.liveVersion()) !== undefined);
    }
    return other;
  }

  /** Polls until CHECK holds (every 50 ms, at most TIMEOUT ms); answers whether it did. */
  async waitFor(check: () => Promise<boolean> | boolean, timeout = 20_000): Promise<boolean> {
    const until = Date.now() + timeout;
    while (Date.now() < until) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return check();
  }

  /** Stops what this board started (its unit, transient runs, trial instances) and removes it all. */
  async dispose(): Promise<void> {
    await this.systemd.close();
    await this.store?.close();
    for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      if (!readCmdline(Number(p)).includes(this.root)) continue;
      try {
        process.kill(Number(p), 'SIGKILL');
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
 * Runs fn over the items, at most `limit` at a time (each deploy is a few dozen processes: more
 * at once only share the same cores), and waits for all of them; then fails with the first
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
