import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectBoard } from '../../native/board.js';
import { classifyDeviceError, DeviceError } from '../../native/device-error.js';
import { Hardware, realDrivers } from '../../native/hardware.js';
import { createWs281xRing } from '../../native/led/led.ws281x.js';
import { createCdevRelay } from '../../native/relay/relay.cdev.js';
import { createSysfsRelay } from '../../native/relay/relay.sysfs.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A fake root with /sys/class/gpio chips and a device-tree model, as the kernel shows them. */
function fakeRoot(model: string | null, chips: { name: string; label: string; base: number }[]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-sysfs-'));
  roots.push(root);
  for (const chip of chips) {
    const dir = path.join(root, 'sys/class/gpio', chip.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'label'), `${chip.label}\n`);
    writeFileSync(path.join(dir, 'base'), `${chip.base}\n`);
  }
  mkdirSync(path.join(root, 'sys/class/gpio'), { recursive: true });
  if (model !== null) {
    mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
    writeFileSync(path.join(root, 'proc/device-tree/model'), `${model}\0`);
  }
  return root;
}

const pi4 = () =>
  fakeRoot('Raspberry Pi 4 Model B Rev 1.5', [
    { name: 'gpiochip512', label: 'pinctrl-bcm2711', base: 512 },
    { name: 'gpiochip570', label: 'raspberrypi-exp-gpio', base: 570 },
  ]);
const pi5 = () =>
  fakeRoot('Raspberry Pi 5 Model B Rev 1.0', [
    { name: 'gpiochip512', label: 'gpio-brcmstb@107d508500', base: 512 },
    { name: 'gpiochip544', label: 'gpio-brcmstb@107d517c00', base: 544 },
    { name: 'gpiochip571', label: 'pinctrl-rp1', base: 571 },
  ]);

describe('board detection from sysfs', () => {
  it('finds the BCM2711 chip base on a Pi 4 with kernel 6.6+', async () => {
    expect(await detectBoard(pi4())).toEqual({
      model: 'Raspberry Pi 4 Model B Rev 1.5',
      gpioChip: { label: 'pinctrl-bcm2711', base: 512 },
      isPi5: false,
      // No config.txt in this tree: the core clock cannot be fixed.
      coreClock: { fixed: false, config: null, mhz: null },
      spidev: false,
    });
  });

  it('finds the RP1 chip base on a Pi 5, ignoring the other chips', async () => {
    const board = await detectBoard(pi5());
    expect(board.gpioChip).toEqual({ label: 'pinctrl-rp1', base: 571 });
    expect(board.isPi5).toBe(true);
  });

  it('uses base 0 on an older kernel and nothing off a Pi', async () => {
    const old = fakeRoot('Raspberry Pi 3 Model B Rev 1.2', [{ name: 'gpiochip0', label: 'pinctrl-bcm2835', base: 0 }]);
    expect((await detectBoard(old)).gpioChip).toEqual({ label: 'pinctrl-bcm2835', base: 0 });
    expect(await detectBoard(fakeRoot(null, []))).toEqual({ model: null, gpioChip: null, isPi5: false, coreClock: null, spidev: false });
  });
});

describe('device problems in plain words', () => {
  it('refuses the WS281x ring on a Pi 5 as unsupported, before loading the library', async () => {
    const board = await detectBoard(pi5());
    await expect(createWs281xRing({ count: 16, gpio: 18 }, board)).rejects.toMatchObject({ problem: 'unsupported-board' });
  });

  it('keeps the service running with stand-ins, each device saying what is wrong', async () => {
    const root = pi5();
    const hardware = new Hardware(realDrivers({ root, isRoot: true }));
    await hardware.configure({ relay: { gpio: 17, inverted: true }, lux: { bus: 1, address: 0x23 }, led: { count: 16, gpio: 18 } });
    const health = Object.fromEntries(hardware.health().map((h) => [h.device, h]));
    // The fake tree has no export file: no sysfs GPIO to drive.
    expect(health.relay).toMatchObject({ state: 'failed', problem: 'no-gpio' });
    expect(health.led).toMatchObject({ state: 'failed', problem: 'unsupported-board' });
    expect(health.lux?.state).toBe('failed');
    await hardware.relay.set(true);
    expect(hardware.relay.isOn()).toBe(true);
    await hardware.close();
  });

  it('sorts driver errors into problems the console can word', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(classifyDeviceError(err('ENOENT'), 'lux')).toBe('no-i2c-bus');
    expect(classifyDeviceError(err('EREMOTEIO'), 'lux')).toBe('no-sensor');
    expect(classifyDeviceError(err('EBUSY'), 'lux')).toBe('i2c-error');
    expect(classifyDeviceError(new Error('mmap() failed'), 'led')).toBe('no-permission');
    expect(classifyDeviceError(err('EACCES'), 'relay')).toBe('no-permission');
    expect(classifyDeviceError(new Error('Optional module i2c-bus is not available: x'), 'lux')).toBe('driver-missing');
    expect(classifyDeviceError(new DeviceError('unsupported-board', 'x'), 'led')).toBe('unsupported-board');
  });
});

describe('sysfs relay on a board', () => {
  it('exports BCM 17 at the chip base, opens it at its off level in the direction write, and writes levels for on and off', async () => {
    for (const [root, pin] of [
      [pi4(), 529],
      [pi5(), 588],
    ] as const) {
      // The kernel would make gpioN/ on export; a fake tree has it already.
      writeFileSync(path.join(root, 'sys/class/gpio/export'), '');
      const dir = path.join(root, 'sys/class/gpio', `gpio${pin}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'direction'), 'in');
      writeFileSync(path.join(dir, 'value'), '0');
      const relay = await createSysfsRelay({ gpio: 17, inverted: true }, await detectBoard(root), root);
      expect(readFileSync(path.join(root, 'sys/class/gpio/export'), 'utf8')).toBe(String(pin));
      // Active-low: off is high, set by the direction write itself.
      expect(readFileSync(path.join(dir, 'direction'), 'utf8')).toBe('high');
      expect(relay.offSwitch).toEqual({ interface: 'sysfs', value: path.join(dir, 'value'), off: 1 });
      await relay.set(true);
      expect(readFileSync(path.join(dir, 'value'), 'utf8')).toBe('0');
      relay.forceOffSync();
      expect(readFileSync(path.join(dir, 'value'), 'utf8')).toBe('1');
      await relay.close();
    }
  });
});

describe('character-device relay (no sysfs export)', () => {
  /**
   * The helper runs for real under python3, with fcntl.ioctl replaced (sitecustomize) by a
   * recorder that plays the kernel: chip labels by device name, a line fd, and a log of requests.
   */
  function fakeCdev(labels: Record<string, string>): { devDir: string; env: Record<string, string>; log: () => string[] } {
    const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-cdev-'));
    roots.push(root);
    const devDir = path.join(root, 'dev');
    const site = path.join(root, 'site');
    mkdirSync(devDir);
    mkdirSync(site);
    for (const name of Object.keys(labels)) writeFileSync(path.join(devDir, name), '');
    const logFile = path.join(root, 'ioctl.log');
    writeFileSync(
      path.join(site, 'sitecustomize.py'),
      [
        'import fcntl, os, struct',
        `LABELS = ${JSON.stringify(labels)}`,
        `LOG = ${JSON.stringify(logFile)}`,
        'def log(text):',
        '    with open(LOG, "a") as f: f.write(text + "\\n")',
        'def ioctl(fd, request, arg=0, mutate=True):',
        '    name = os.path.basename(os.readlink("/proc/self/fd/%d" % fd))',
        '    if request == 0x8044B401:',
        '        arg[32:32 + len(LABELS.get(name, ""))] = LABELS.get(name, "").encode(); return 0',
        '    if request == 0xC250B407:',
        '        line, = struct.unpack_from("=I", arg, 0); flags, nattrs = struct.unpack_from("=QI", arg, 288)',
        '        aid, _, value, mask = struct.unpack_from("=IIQQ", arg, 320); nlines, = struct.unpack_from("=I", arg, 560)',
        '        consumer = bytes(arg[256:288]).split(b"\\0")[0].decode()',
        '        log("request %s line=%d flags=%d attrs=%d id=%d value=%d mask=%d lines=%d consumer=%s" % (name, line, flags, nattrs, aid, value, mask, nlines, consumer))',
        '        struct.pack_into("=i", arg, 588, os.open("/dev/null", os.O_RDWR)); return 0',
        '    if request == 0xC010B40F:',
        '        bits, mask = struct.unpack("=QQ", arg); log("set %d mask=%d" % (bits, mask)); return arg',
        '    raise OSError(25, "not a GPIO device")',
        'fcntl.ioctl = ioctl',
      ].join('\n'),
    );
    return { devDir, env: { PYTHONPATH: site }, log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : []) };
  }

  it('requests the line of the SoC chip as an output at its off level, sets it, and drives it off when its input ends', async () => {
    const cdev = fakeCdev({ gpiochip0: 'pinctrl-rp1', gpiochip10: 'gpio-brcmstb@107d508500' });
    const relay = await createCdevRelay({ gpio: 17, inverted: true }, cdev);
    expect(relay.driver).toBe('gpio-cdev');
    expect(relay.offSwitch).toEqual({ interface: 'cdev', chip: path.join(cdev.devDir, 'gpiochip0'), line: 17, off: 1 });
    // Output flag (1 << 3) and the off level (high, active-low) in the same request: no blink.
    expect(cdev.log()).toEqual(['request gpiochip0 line=17 flags=8 attrs=1 id=2 value=1 mask=1 lines=1 consumer=boothdeck-relay']);
    await relay.set(true);
    relay.forceOffSync();
    await relay.close();
    expect(cdev.log().slice(1)).toEqual(['set 0 mask=1', 'set 1 mask=1', 'set 1 mask=1']);
  });

  it('says when no chip is a Raspberry Pi one, and when there is no GPIO at all', async () => {
    const other = fakeCdev({ gpiochip0: 'some-expander' });
    await expect(createCdevRelay({ gpio: 17, inverted: false }, other)).rejects.toMatchObject({ problem: 'no-gpio' });
    const none = fakeCdev({});
    await expect(createCdevRelay({ gpio: 17, inverted: false }, none)).rejects.toMatchObject({ problem: 'no-gpio' });
  });
});
