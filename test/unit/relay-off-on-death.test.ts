import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const PIN = '2468';
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.pid && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A Pi 4 on kernel 6.6 as sysfs shows it, BCM 17 exported already (a fake tree cannot make gpio529/ on export). */
function standInBoard(root: string): string {
  const gpio = path.join(root, 'sys/class/gpio');
  mkdirSync(path.join(gpio, 'gpiochip512'), { recursive: true });
  writeFileSync(path.join(gpio, 'gpiochip512/label'), 'pinctrl-bcm2711\n');
  writeFileSync(path.join(gpio, 'gpiochip512/base'), '512\n');
  writeFileSync(path.join(gpio, 'export'), '');
  mkdirSync(path.join(gpio, 'gpio529'));
  writeFileSync(path.join(gpio, 'gpio529/direction'), 'in');
  writeFileSync(path.join(gpio, 'gpio529/value'), '0');
  mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
  writeFileSync(path.join(root, 'proc/device-tree/model'), 'Raspberry Pi 4 Model B Rev 1.5\0');
  return path.join(gpio, 'gpio529/value');
}

interface Unit {
  env: Record<string, string>;
  envFiles: string[];
  pre: string[][];
  start: string[];
  post: string[][];
}

/** The unit's commands and environment, specifiers replaced as systemd's user manager would. */
function readUnit(home: string, runtime: string): Unit {
  const unit: Unit = { env: {}, envFiles: [], pre: [], start: [], post: [] };
  const expand = (v: string): string => v.replaceAll('%h', home).replaceAll('%t', runtime);
  for (const raw of readFileSync(path.join(repo, 'deploy/boothdeck.service'), 'utf8').split('\n')) {
    const m = /^(\w+)=(.*)$/.exec(raw.trim());
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    // A leading "-": a failure is recorded and ignored (our commands have no quoting).
    const argv = expand(value.replace(/^-/, '')).split(/\s+/);
    if (key === 'Environment') {
      const [k, ...v] = value.split('=');
      unit.env[k!] = v.join('=');
    } else if (key === 'EnvironmentFile') unit.envFiles.push(expand(value.replace(/^-/, '')));
    else if (key === 'ExecStartPre') unit.pre.push(argv);
    else if (key === 'ExecStart') unit.start = argv;
    else if (key === 'ExecStopPost') unit.post.push(argv);
  }
  return unit;
}

function environment(unit: Unit, home: string, runtime: string): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_RUNTIME_DIR: runtime, ...unit.env };
  for (const file of unit.envFiles) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
      if (m) env[m[1]!] = m[2]!;
    }
  }
  return env;
}

const pgroupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the flash relay is off once the service is gone, however it went', () => {
  // How long ExecStopPost takes is measured by `npm run bench -- relayoff`, not here.
  it("SIGKILL while the relay is on: the unit's ExecStopPost switches it off, with no Boothdeck process left", async () => {
    const top = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-unit-'));
    dirs.push(top);
    const [home, runtime, board, data] = ['home', 'run', 'board', 'data'].map((d) => path.join(top, d)) as [string, string, string, string];
    for (const d of [home, runtime, board, data]) mkdirSync(d, { mode: 0o700 });
    const value = standInBoard(board);
    // What the deploy installs: the script into ~/boothdeck/bin, the settings file; `current`
    // is the release, here a stand-in that runs the service on the stand-in board.
    mkdirSync(path.join(home, 'boothdeck/bin'), { recursive: true });
    copyFileSync(path.join(repo, 'deploy/boothdeck-relay-off'), path.join(home, 'boothdeck/bin/boothdeck-relay-off'));
    chmodSync(path.join(home, 'boothdeck/bin/boothdeck-relay-off'), 0o755);
    const current = path.join(home, 'boothdeck/current');
    writeFileSync(
      current,
      `#!/bin/sh\ncd ${JSON.stringify(repo)} && exec ${JSON.stringify(process.execPath)} --import tsx test/support/relay-board-child.ts\n`,
    );
    chmodSync(current, 0o755);
    mkdirSync(path.join(home, '.config/boothdeck'), { recursive: true });
    writeFileSync(
      path.join(home, '.config/boothdeck/boothdeck.env'),
      [
        'BOOTHDECK_PORT=0',
        'BOOTHDECK_HOST=127.0.0.1',
        `BOOTHDECK_DATA_DIR=${data}`,
        'BOOTHDECK_CAPTURE_URL=simulator',
        `BOOTHDECK_ADMIN_PIN=${PIN}`,
        `BOARD_ROOT=${board}`,
      ].join('\n'),
    );

    const unit = readUnit(home, runtime);
    const env = environment(unit, home, runtime);
    expect(unit.post.length, 'the unit has an ExecStopPost').toBeGreaterThan(0);
    expect(unit.pre.length, 'the unit has an ExecStartPre').toBeGreaterThan(0);
    for (const [cmd, ...args] of unit.pre) expect(spawnSync(cmd!, args, { env }).status).toBe(0);

    const [cmd, ...args] = unit.start;
    const main = spawn(cmd!, args, { env, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(main);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      main.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /ready (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      main.once('exit', () => reject(new Error(`the service ended before it answered: ${out}`)));
    });
    const signIn = await fetch(`${url}/api/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pin: PIN }),
    });
    expect(signIn.status).toBe(204);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const headers = { 'content-type': 'application/json', cookie };
    // An active-low relay board: off is a high level.
    const saved = await fetch(`${url}/api/admin/settings`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ hardware: { relay: { inverted: true } } }),
    });
    expect(saved.status).toBe(200);
    expect(readFileSync(value, 'utf8')).toBe('1');
    expect(readFileSync(path.join(runtime, 'boothdeck/relay-off'), 'utf8')).toContain(`value=${value}\noff=1\n`);

    const lit = await fetch(`${url}/api/admin/hardware/test/relay`, { method: 'POST', headers, body: JSON.stringify({ ms: 5000 }) });
    expect(lit.status).toBe(204);
    expect(readFileSync(value, 'utf8')).toBe('0');

    // SIGKILL, as the OOM killer sends it: no handler of Boothdeck's runs.
    const exited = new Promise<void>((resolve) => main.once('exit', () => resolve()));
    process.kill(main.pid!, 'SIGKILL');
    await exited;
    expect(readFileSync(value, 'utf8'), 'the relay stays on with the process gone').toBe('0');
    // What systemd does next (KillMode=control-group): the rest of the unit's processes go, then ExecStopPost.
    if (pgroupAlive(main.pid!)) process.kill(-main.pid!, 'SIGKILL');
    // The kill is delivered asynchronously: like systemd, wait for the group to be empty (no fixed window).
    for (let i = 0; pgroupAlive(main.pid!) && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    expect(pgroupAlive(main.pid!), 'no Boothdeck process left').toBe(false);
    for (const [post, ...postArgs] of unit.post) expect(spawnSync(post!, postArgs, { env }).status).toBe(0);
    expect(readFileSync(value, 'utf8')).toBe('1');
  }, 60_000);
});

describe('deploy/boothdeck-relay-off', () => {
  const script = path.join(repo, 'deploy/boothdeck-relay-off');
  const run = (file: string, env: Record<string, string> = {}) =>
    spawnSync(script, [file], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' });

  it('does nothing without an off switch, and refuses a file that names anything but a GPIO', () => {
    const top = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-relay-off-'));
    dirs.push(top);
    expect(run(path.join(top, 'absent')).status).toBe(0);
    const victim = path.join(top, 'notes.txt');
    writeFileSync(victim, 'keep me');
    // A file named "value" below a GPIO's folder is no value file either.
    const below = path.join(top, 'sys/class/gpio/gpio17/notes/value');
    mkdirSync(path.dirname(below), { recursive: true });
    writeFileSync(below, 'keep me');
    writeFileSync(path.join(path.dirname(below), 'direction'), 'keep me');
    for (const text of [
      `interface=sysfs\nvalue=${victim}\noff=0\n`,
      `interface=sysfs\nvalue=${below}\noff=0\n`,
      'interface=cdev\nchip=/dev/gpiochip0/x\nline=17\noff=0\n',
      `interface=sysfs\nvalue=${top}/sys/class/gpio/gpio17/../../../../notes.txt/value\noff=0\n`,
      'interface=sysfs\nvalue=/sys/class/gpio/gpio17/value\noff=2\n',
      'interface=cdev\nchip=/dev/sda\nline=17\noff=0\n',
      'interface=cdev\nchip=/dev/gpiochip0\nline=17;reboot\noff=0\n',
    ]) {
      const file = path.join(top, 'relay-off');
      writeFileSync(file, text);
      const result = run(file);
      expect(result.status, text).toBe(1);
      expect(result.stderr).toMatch(/the relay was not switched off/);
    }
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(readFileSync(below, 'utf8')).toBe('keep me');
    expect(readFileSync(path.join(path.dirname(below), 'direction'), 'utf8')).toBe('keep me');
  });

  it('requests a character-device line as an output at its off level (ioctls recorded under python3)', () => {
    const top = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-relay-off-'));
    dirs.push(top);
    const chip = path.join(top, 'dev/gpiochip0');
    mkdirSync(path.dirname(chip));
    writeFileSync(chip, '');
    const log = path.join(top, 'ioctl.log');
    mkdirSync(path.join(top, 'site'));
    writeFileSync(
      path.join(top, 'site/sitecustomize.py'),
      [
        'import fcntl, struct',
        'def ioctl(fd, request, arg=0, mutate=True):',
        '    line, = struct.unpack_from("=I", arg, 0); flags, n = struct.unpack_from("=QI", arg, 288)',
        '    aid, _, value, mask = struct.unpack_from("=IIQQ", arg, 320)',
        `    open(${JSON.stringify(log)}, "a").write("%x line=%d flags=%d id=%d value=%d" % (request, line, flags, aid, value))`,
        '    return 0',
        'fcntl.ioctl = ioctl',
      ].join('\n'),
    );
    writeFileSync(path.join(top, 'relay-off'), `interface=cdev\nchip=${chip}\nline=17\noff=1\n`);
    expect(run(path.join(top, 'relay-off'), { PYTHONPATH: path.join(top, 'site') }).status).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('c250b407 line=17 flags=8 id=2 value=1');
  });
});
