import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectBoard } from '../../native/board.js';
import { classifyDeviceError, DeviceError } from '../../native/device-error.js';
import { Hardware, realDrivers } from '../../native/hardware.js';
import { createWs281xRing } from '../../native/led/led.ws281x.js';

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
    expect(await detectBoard(fakeRoot(null, []))).toEqual({ model: null, gpioChip: null, isPi5: false, spidev: false });
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
    expect(classifyDeviceError(new Error('Optional module onoff is not available: x'), 'relay')).toBe('driver-missing');
    expect(classifyDeviceError(new DeviceError('unsupported-board', 'x'), 'led')).toBe('unsupported-board');
  });
});

describe('onoff relay on a board', () => {
  it('opens BCM 17 at the chip base with its off level in the same call, and writes levels for on and off', async () => {
    const { createOnoffRelay } = await import('../../native/relay/relay.onoff.js');
    for (const [root, pin] of [
      [pi4(), 529],
      [pi5(), 588],
    ] as const) {
      writeFileSync(path.join(root, 'sys/class/gpio/export'), '');
      const opened: { gpio: number; direction: string }[] = [];
      const writes: number[] = [];
      class Gpio {
        constructor(gpio: number, direction: 'high' | 'low') {
          opened.push({ gpio, direction });
        }
        writeSync(value: 0 | 1): void {
          writes.push(value);
        }
        unexport(): void {}
      }
      const relay = await createOnoffRelay({ gpio: 17, inverted: true }, await detectBoard(root), root, async () => ({ Gpio }));
      // Active-low: off is high, set by the direction write itself; nothing is written before.
      expect(opened).toEqual([{ gpio: pin, direction: 'high' }]);
      expect(writes).toEqual([]);
      await relay.set(true);
      relay.forceOffSync();
      expect(writes).toEqual([0, 1]);
      await relay.close();
    }
  });
});
