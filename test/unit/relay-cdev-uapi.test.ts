import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCdevRelay } from '../../native/relay/relay.cdev.js';

const repo = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A stand-in /dev whose gpiochip0 is a Pi 5's: python3's fcntl.ioctl is replaced (sitecustomize)
 * by a recorder that writes each request's code and its raw bytes, answers the chip's label and
 * hands back a line fd.
 */
function standIn(): { top: string; devDir: string; site: string; log: () => string[] } {
  const top = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-uapi-'));
  dirs.push(top);
  const devDir = path.join(top, 'dev');
  const site = path.join(top, 'site');
  mkdirSync(devDir);
  mkdirSync(site);
  writeFileSync(path.join(devDir, 'gpiochip0'), '');
  const logFile = path.join(top, 'ioctl.log');
  writeFileSync(
    path.join(site, 'sitecustomize.py'),
    [
      'import fcntl, os',
      `LOG = ${JSON.stringify(logFile)}`,
      'def ioctl(fd, request, arg=0, mutate=True):',
      '    with open(LOG, "a") as f: f.write("%x %d %s\\n" % (request, os.getpid(), bytes(arg).hex()))',
      '    if request == 0x8044B401:',
      '        arg[32:43] = b"pinctrl-rp1"; return 0',
      '    if request == 0xC250B407:',
      '        arg[588:592] = os.open("/dev/null", os.O_RDWR).to_bytes(4, "little"); return 0',
      '    return arg',
      'fcntl.ioctl = ioctl',
    ].join('\n'),
  );
  return { top, devDir, site, log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : []) };
}

/**
 * Decodes recorded requests with the kernel's own declarations (linux/gpio.h): what the kernel
 * reads from the bytes python3 packed, the ioctl numbers, the struct sizes and the padding it
 * insists be zero. Needs a C compiler and the kernel's headers (the tests say so when absent).
 */
function decoder(top: string): (lines: string[]) => string[] {
  const source = path.join(top, 'decode.c');
  const exe = path.join(top, 'decode');
  writeFileSync(
    source,
    `#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int zero(const void *p, size_t n) { const unsigned char *b = p; while (n--) if (*b++) return 0; return 1; }
int main(void) {
  char code[32], hex[4096];
  unsigned char buf[2048];
  int pid;
  while (scanf("%31s %d %4095s", code, &pid, hex) == 3) {
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) sscanf(hex + 2 * i, "%2hhx", &buf[i]);
    unsigned long c = strtoul(code, 0, 16);
    if (c == GPIO_GET_CHIPINFO_IOCTL && n == sizeof(struct gpiochip_info)) printf("chipinfo\\n");
    else if (c == GPIO_V2_GET_LINE_IOCTL && n == sizeof(struct gpio_v2_line_request)) {
      struct gpio_v2_line_request r; memcpy(&r, buf, sizeof r);
      const struct gpio_v2_line_config_attribute *a = &r.config.attrs[0];
      printf("request offset=%u lines=%u consumer=%s output=%d input=%d attrs=%u values_attr=%d value=%llu mask=%llu padding=%s\\n",
        r.offsets[0], r.num_lines, r.consumer, !!(r.config.flags & GPIO_V2_LINE_FLAG_OUTPUT), !!(r.config.flags & GPIO_V2_LINE_FLAG_INPUT),
        r.config.num_attrs, a->attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES, (unsigned long long)a->attr.values, (unsigned long long)a->mask,
        zero(r.padding, sizeof r.padding) && zero(r.config.padding, sizeof r.config.padding) && zero(&a->attr.padding, sizeof a->attr.padding) ? "zero" : "set");
    } else if (c == GPIO_V2_LINE_SET_VALUES_IOCTL && n == sizeof(struct gpio_v2_line_values)) {
      struct gpio_v2_line_values v; memcpy(&v, buf, sizeof v);
      printf("set bits=%llu mask=%llu\\n", (unsigned long long)v.bits, (unsigned long long)v.mask);
    } else printf("unknown code %lx or size %zu\\n", c, n);
  }
  return 0;
}
`,
  );
  const built = spawnSync('cc', ['-o', exe, source], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  return (lines) =>
    spawnSync(exe, [], { input: lines.join('\n') + '\n', encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
}

const hasDecoder = existsSync('/usr/include/linux/gpio.h') && spawnSync('cc', ['--version']).status === 0;

describe("the GPIO character device's requests, read with the kernel's linux/gpio.h", () => {
  it.skipIf(!hasDecoder)("the relay helper's line request and level changes are what the kernel reads", async () => {
    const s = standIn();
    const relay = await createCdevRelay({ gpio: 17, inverted: true }, { devDir: s.devDir, env: { PYTHONPATH: s.site } });
    await relay.set(true);
    await relay.close();
    expect(decoder(s.top)(s.log())).toEqual([
      'chipinfo',
      // Output at the off level (active-low: high) in the request itself; padding zero, as the kernel demands.
      'request offset=17 lines=1 consumer=boothdeck-relay output=1 input=0 attrs=1 values_attr=1 value=1 mask=1 padding=zero',
      'set bits=0 mask=1',
      'set bits=1 mask=1',
    ]);
  });

  it.skipIf(!hasDecoder)("the unit's boothdeck-relay-off requests the line at its off level as the kernel reads it", () => {
    const s = standIn();
    const file = path.join(s.top, 'relay-off');
    writeFileSync(file, `interface=cdev\nchip=${path.join(s.devDir, 'gpiochip0')}\nline=22\noff=0\n`);
    const run = spawnSync(path.join(repo, 'deploy/boothdeck-relay-off'), [file], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONPATH: s.site },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(decoder(s.top)(s.log())).toEqual([
      'request offset=22 lines=1 consumer=boothdeck-relay-off output=1 input=0 attrs=1 values_attr=1 value=0 mask=1 padding=zero',
    ]);
  });
});

/** Waits for a condition a process will make true, polling; gives up after 30 s (a deadline, not a timing). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; !done() && i < 1500; i++) await new Promise((r) => setTimeout(r, 20));
}

describe('the GPIO helper when Boothdeck is killed', () => {
  it('drives the off level and exits once the process holding it is gone (SIGKILL)', async () => {
    const s = standIn();
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/relay-cdev-child.ts'], {
      cwd: repo,
      env: { ...process.env, DEV_DIR: s.devDir, HELPER_PYTHONPATH: s.site },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    pids.push(child.pid!);
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('on') && resolve());
      child.once('exit', () => reject(new Error('the child ended before switching the light on')));
    });
    const helper = Number(s.log()[0]!.split(' ')[1]);
    pids.push(helper);
    // The levels the helper set, as the kernel reads gpio_v2_line_values: {bits, mask}, little-endian.
    const sets = (): string[] =>
      s
        .log()
        .filter((l) => l.startsWith('c010b40f '))
        .map((l) => {
          const raw = Buffer.from(l.split(' ')[2]!, 'hex');
          return `bits=${raw.readBigUInt64LE(0)} mask=${raw.readBigUInt64LE(8)}`;
        });
    // The helper reads the level from its pipe in its own time: wait for it (no fixed window).
    await until(() => sets().length > 0);
    expect(sets()).toEqual(['bits=1 mask=1']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
    // The helper notices its input ended: it drives the off level, then exits (the line is released).
    // Gone, or a zombie no one reaped yet (its parent was killed): it runs no more.
    const alive = (): boolean => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${helper}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    await until(() => !alive());
    expect(alive(), 'the helper is gone').toBe(false);
    expect(sets()).toEqual(['bits=1 mask=1', 'bits=0 mask=1']);
  }, 60_000);
});
