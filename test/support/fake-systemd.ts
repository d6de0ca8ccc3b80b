import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * A stand-in for the booth user's systemd (and the few calls to the system's), run inside the test
 * process. The `systemctl` and `systemd-run` stand-ins on the deploy's PATH ask it over a Unix
 * socket. It really runs the installed boothdeck.service (its ExecStart, environment files and
 * drop-ins read from the board), restarts it RestartSec after it dies as Restart=always says and
 * counts the restarts, stops it with SIGTERM, runs the oneshot units and the transient units of
 * systemd-run in processes of their own. Every call is logged as the deploy made it.
 */

interface UnitFile {
  execStart: string;
  restartSec: number;
  restart: string;
  env: Record<string, string>;
  envFiles: string[];
}

interface ServiceState {
  active: string;
  sub: string;
  restarts: number;
  child: ChildProcess | undefined;
  restartTimer: NodeJS.Timeout | undefined;
  stopping: Promise<void> | undefined;
}

/** Parses a unit file and its drop-ins (later lines win, as in systemd). */
function readUnit(unitDir: string, name: string, home: string): UnitFile | undefined {
  const file = path.join(unitDir, name);
  if (!existsSync(file)) return undefined;
  const dropins = existsSync(`${file}.d`)
    ? readdirSync(`${file}.d`)
        .filter((f) => f.endsWith('.conf'))
        .sort()
        .map((f) => path.join(`${file}.d`, f))
    : [];
  const unit: UnitFile = { execStart: '', restartSec: 0.1, restart: 'no', env: {}, envFiles: [] };
  for (const f of [file, ...dropins]) {
    for (const raw of readFileSync(f, 'utf8').split('\n')) {
      const line = raw.replace(/%h/g, home);
      const eq = line.indexOf('=');
      if (eq < 0 || line.startsWith('#')) continue;
      const key = line.slice(0, eq).trim();
      const value = line.slice(eq + 1).trim();
      if (key === 'ExecStart') unit.execStart = value;
      else if (key === 'RestartSec') unit.restartSec = Number(value.replace(/s$/, ''));
      else if (key === 'Restart') unit.restart = value;
      else if (key === 'Environment') {
        const [k, ...v] = value.split('=');
        if (k) unit.env[k] = v.join('=');
      } else if (key === 'EnvironmentFile') unit.envFiles.push(value);
    }
  }
  return unit;
}

function envFile(spec: string): Record<string, string> {
  const file = spec.replace(/^-/, '');
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}

export class FakeSystemd {
  private readonly server: http.Server;
  private readonly services = new Map<string, ServiceState>();
  private readonly transient = new Map<string, ChildProcess>();
  readonly socket: string;
  /** The system manager's units (the firewall's): only whether each is active. */
  private readonly systemActive = new Set<string>();

  constructor(
    private readonly home: string,
    /** The user manager's environment: what every unit it starts gets. */
    private readonly baseEnv: () => NodeJS.ProcessEnv,
    private readonly callLog: string,
    root: string,
    private readonly sysroot: string,
  ) {
    this.socket = path.join(root, 'systemd.sock');
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const [argPart = '', envPart = ''] = body.split('\n\u0000\n');
        const args = argPart.split('\n').filter((a) => a !== '');
        const callerEnv = Object.fromEntries(
          envPart
            .split('\u0000')
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])
            .filter(([k]) => k),
        ) as Record<string, string>;
        const command = req.url === '/systemd-run' ? this.systemdRun(args, callerEnv) : this.systemctl(args, callerEnv);
        command.then(
          ({ code, out }) => res.end(`${code}\n${out}`),
          (err: unknown) => res.end(`1\n${String(err)}\n`),
        );
      });
    });
  }

  listen(): Promise<void> {
    rmSync(this.socket, { force: true });
    return new Promise((resolve) => this.server.listen(this.socket, resolve));
  }

  private get unitDir(): string {
    return path.join(this.home, '.config/systemd/user');
  }

  private log(line: string): void {
    appendFileSync(this.callLog, `${line}\n`);
  }

  private state(name: string): ServiceState {
    let s = this.services.get(name);
    if (!s) {
      s = { active: 'inactive', sub: 'dead', restarts: 0, child: undefined, restartTimer: undefined, stopping: undefined };
      this.services.set(name, s);
    }
    return s;
  }

  /** The state of boothdeck.service as `systemctl show` tells it. */
  show(name: string): { active: string; sub: string; restarts: number; mainPid: number } {
    const s = this.state(name);
    return { active: s.active, sub: s.sub, restarts: s.restarts, mainPid: s.child?.pid ?? 0 };
  }

  /** The process ids of what the user manager runs (the unit's release, oneshots, transient units). */
  pids(): number[] {
    return [...this.services.values()].flatMap((s) => (s.child?.pid ? [s.child.pid] : []));
  }

  private environment(unit: UnitFile, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...this.baseEnv(), HOME: this.home, ...unit.env };
    for (const spec of unit.envFiles) Object.assign(env, envFile(spec));
    return { ...env, ...extra };
  }

  private spawnService(name: string): boolean {
    const unit = readUnit(this.unitDir, name, this.home);
    const s = this.state(name);
    if (!unit?.execStart) {
      s.active = 'failed';
      s.sub = 'failed';
      return false;
    }
    const [file, ...args] = unit.execStart.split(/\s+/);
    const out = openSync(path.join(this.home, `.unit-${name}.log`), 'a');
    const child = spawn(file!, args, { env: this.environment(unit), detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    child.on('error', () => undefined);
    s.child = child;
    s.active = 'active';
    s.sub = 'running';
    child.on('exit', () => {
      if (s.child !== child) return;
      s.child = undefined;
      if (s.stopping) return;
      // The unit as its files say now (a drop-in written meanwhile counts, as after a daemon-reload).
      const now = readUnit(this.unitDir, name, this.home) ?? unit;
      if (now.restart === 'always') {
        s.active = 'activating';
        s.sub = 'auto-restart';
        s.restartTimer = setTimeout(() => {
          s.restartTimer = undefined;
          if (s.stopping || s.sub !== 'auto-restart') return;
          s.restarts++;
          this.spawnService(name);
        }, now.restartSec * 1000);
      } else {
        s.active = 'failed';
        s.sub = 'failed';
      }
    });
    return true;
  }

  private async stopService(name: string): Promise<void> {
    const s = this.state(name);
    if (s.restartTimer) clearTimeout(s.restartTimer);
    s.restartTimer = undefined;
    const child = s.child;
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      s.active = 'deactivating';
      s.sub = 'stop-sigterm';
      s.stopping = new Promise<void>((resolve) => {
        const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        killGroup(child.pid!, 'SIGTERM');
      });
      await s.stopping;
    }
    s.stopping = undefined;
    s.child = undefined;
    s.active = 'inactive';
    s.sub = 'dead';
  }

  /** Stops a unit as `systemctl --user stop` would. */
  stopUnit(name: string): Promise<void> {
    return this.stopService(name);
  }

  /** Starts a unit as `systemctl --user start` would (a cloned board's running release). */
  startUnit(name: string): Promise<number> {
    return this.startService(name);
  }

  private async startService(name: string): Promise<number> {
    const s = this.state(name);
    if (s.stopping) await s.stopping;
    if (s.child) return 0;
    if (s.restartTimer) clearTimeout(s.restartTimer);
    s.restartTimer = undefined;
    // Started by hand: systemd counts the automatic restarts again from 0.
    s.restarts = 0;
    return this.spawnService(name) ? 0 : 5;
  }

  /** Runs a oneshot unit's ExecStart to its end (systemctl start waits for it): its exit code and output. */
  async runOneshot(name: string, extraEnv: Record<string, string> = {}, wait = true): Promise<{ code: number; out: string }> {
    const unit = readUnit(this.unitDir, name, this.home);
    if (!unit?.execStart) return { code: 5, out: `Unit ${name} not found.\n` };
    const [file, ...args] = unit.execStart.split(/\s+/);
    const child = spawn(file!, args, {
      env: this.environment(unit, extraEnv),
      cwd: this.home,
      detached: !wait,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const done = new Promise<{ code: number; out: string }>((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, out })));
    if (!wait) {
      this.transient.set(name, child);
      return { code: 0, out: '' };
    }
    return done;
  }

  private async systemctl(args: string[], callerEnv: Record<string, string>): Promise<{ code: number; out: string }> {
    this.log(`systemctl ${args.join(' ')}`);
    const user = args[0] === '--user';
    const rest = user ? args.slice(1) : args;
    const [verb, ...more] = rest;
    const names = more.filter((a) => !a.startsWith('-'));
    const name = names.at(-1) ?? '';
    if (!user) return this.systemManager(verb ?? '', more, name);
    switch (verb) {
      case 'show': {
        const s = this.show(name);
        return { code: 0, out: `ActiveState=${s.active}\nSubState=${s.sub}\nNRestarts=${s.restarts}\nExecMainPID=${s.mainPid}\n` };
      }
      case 'start':
        if (name === 'boothdeck.service') return { code: await this.startService(name), out: '' };
        return more.includes('--no-block') ? this.runOneshot(name, {}, false) : this.runOneshot(name, pick(callerEnv));
      case 'stop':
        // A user manager that does not get the release to stop (a hung stop job).
        if (callerEnv.FAKE_STOP_FAILS && name === 'boothdeck.service') return { code: 1, out: 'Job for boothdeck.service canceled.\n' };
        if (this.transient.has(name)) {
          const child = this.transient.get(name)!;
          if (child.pid) killGroup(child.pid, 'SIGTERM');
          return { code: 0, out: '' };
        }
        await this.stopService(name);
        return { code: 0, out: '' };
      case 'restart':
        await this.stopService(name);
        return { code: await this.startService(name), out: '' };
      case 'is-active':
        return { code: this.state(name).active === 'active' ? 0 : 3, out: '' };
      default:
        // enable, disable, daemon-reload: the files on the board are what the unit runs next.
        return { code: 0, out: '' };
    }
  }

  /** The system manager, for the unit boothdeck-system installs: runs its ExecStart and ExecStop. */
  private async systemManager(verb: string, more: string[], name: string): Promise<{ code: number; out: string }> {
    const file = path.join(this.sysroot, 'etc/systemd/system', name);
    const line = (key: string): string | undefined =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .find((l) => l.startsWith(`${key}=`))
            ?.slice(key.length + 1)
            .replace(/^-/, '')
        : undefined;
    const sh = (command: string): Promise<number> =>
      new Promise((resolve) => spawn('sh', ['-c', command], { env: this.baseEnv(), stdio: 'ignore' }).on('close', (c) => resolve(c ?? 1)));
    switch (verb) {
      case 'is-active':
        return { code: this.systemActive.has(name) ? 0 : 3, out: '' };
      case 'enable':
        return { code: existsSync(file) ? 0 : 1, out: '' };
      case 'restart': {
        const start = line('ExecStart');
        const code = start ? await sh(start) : 5;
        if (code === 0) this.systemActive.add(name);
        return { code, out: '' };
      }
      case 'disable':
        if (more.includes('--now')) {
          const stop = line('ExecStop');
          if (stop) await sh(stop);
          this.systemActive.delete(name);
        }
        return { code: 0, out: '' };
      default:
        return { code: 0, out: '' };
    }
  }

  /** systemd-run --user --unit=NAME … -- ARGV: a transient unit, its output where StandardOutput= says. */
  private async systemdRun(args: string[], callerEnv: Record<string, string>): Promise<{ code: number; out: string }> {
    this.log(`systemd-run ${args.join(' ')}`);
    if (callerEnv.FAKE_NO_SYSTEMD_RUN) return { code: 1, out: 'Failed to connect to bus: No medium found\n' };
    const dash = args.indexOf('--');
    const options = args.slice(0, dash);
    const argv = args.slice(dash + 1);
    const unit = options.find((o) => o.startsWith('--unit='))?.slice('--unit='.length) ?? 'run';
    const output = options
      .find((o) => o.startsWith('--property=StandardOutput=append:'))
      ?.slice('--property=StandardOutput=append:'.length);
    const env: NodeJS.ProcessEnv = { ...this.baseEnv(), HOME: this.home, ...pick(callerEnv) };
    for (const o of options)
      if (o.startsWith('--setenv=')) {
        const [k, ...v] = o.slice('--setenv='.length).split('=');
        if (k) env[k] = v.join('=');
      }
    const fd = output ? openSync(output, 'a') : 'ignore';
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd: this.home, detached: true, stdio: ['ignore', fd, fd] });
    if (typeof fd === 'number') closeSync(fd);
    child.on('error', () => undefined);
    this.transient.set(`${unit}.service`, child);
    this.transient.set(unit, child);
    return { code: 0, out: '' };
  }

  async close(): Promise<void> {
    for (const s of this.services.values()) {
      if (s.restartTimer) clearTimeout(s.restartTimer);
      s.stopping = Promise.resolve();
      if (s.child?.pid) killGroup(s.child.pid, 'SIGKILL');
    }
    for (const child of this.transient.values()) if (child.pid) killGroup(child.pid, 'SIGKILL');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * What of the caller's environment a unit gets: the fake board's own variables and the deploy's
 * settings (the tests' tuning, the step hook). The rest is the user manager's.
 */
function pick(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => /^(FAKE_|BOOTHDECK_)/.test(k)));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}
