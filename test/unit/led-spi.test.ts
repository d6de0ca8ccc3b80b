import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectBoard } from '../../native/board.js';
import { Hardware, realDrivers } from '../../native/hardware.js';
import { chooseLedDriver } from '../../native/led/led-driver-choice.js';
import { createSpiRing } from '../../native/led/led.spi.js';
import { pythonSpidevSetup, type SpidevSetup } from '../../native/led/spidev-setup.js';
import { encodeWs2812Spi, RESET_BYTES, SPI_SPEED_HZ } from '../../native/led/ws2812-spi.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A fake root: device-tree model, the SoC's GPIO chip, and /dev/spidev0.0 as a plain file when SPI is on. */
function board(model: string, chip: { label: string; base: number }, spi: boolean): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-spi-'));
  roots.push(root);
  const gpio = path.join(root, 'sys/class/gpio', `gpiochip${chip.base}`);
  mkdirSync(gpio, { recursive: true });
  writeFileSync(path.join(gpio, 'label'), `${chip.label}\n`);
  writeFileSync(path.join(gpio, 'base'), `${chip.base}\n`);
  mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
  writeFileSync(path.join(root, 'proc/device-tree/model'), `${model}\0`);
  mkdirSync(path.join(root, 'dev'), { recursive: true });
  if (spi) writeFileSync(path.join(root, 'dev/spidev0.0'), '');
  return root;
}
const pi4 = (spi = true) => board('Raspberry Pi 4 Model B Rev 1.5', { label: 'pinctrl-bcm2711', base: 512 }, spi);
const pi5 = (spi = true) => board('Raspberry Pi 5 Model B Rev 1.0', { label: 'pinctrl-rp1', base: 571 }, spi);

/** Stands for the python3 ioctl helper: records the calls and keeps the speed asked. */
function recordingSetup(): { setup: SpidevSetup; calls: { device: string; speed: number }[] } {
  const calls: { device: string; speed: number }[] = [];
  return {
    calls,
    setup: async (device, speed) => {
      calls.push({ device, speed });
      return speed;
    },
  };
}

const ZERO = 0xc0;
const ONE = 0xf8;
/** The eight SPI bytes of one colour byte, most significant bit first. */
const bits = (byte: number): number[] => Array.from({ length: 8 }, (_, i) => ((byte >> (7 - i)) & 1 ? ONE : ZERO));

describe('WS2812 over SPI: the encoder', () => {
  it('encodes a known colour bit by bit, green first, between two 300 µs reset gaps', () => {
    expect(SPI_SPEED_HZ).toBe(6_400_000);
    expect(RESET_BYTES).toBe(240); // 240 × 8 bits at 6.4 MHz = 300 µs
    const frame = encodeWs2812Spi([{ r: 0xff, g: 0x00, b: 0x81 }], 1, 1);
    expect(frame.length).toBe(240 + 24 + 240);
    expect([...frame.subarray(0, 240)].every((b) => b === 0)).toBe(true);
    expect([...frame.subarray(240, 264)]).toEqual([
      ...[ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO], // green 0x00
      ...[ONE, ONE, ONE, ONE, ONE, ONE, ONE, ONE], // red 0xff
      ...[ONE, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ONE], // blue 0x81
    ]);
    expect([...frame.subarray(264)].every((b) => b === 0)).toBe(true);
  });

  it('applies the brightness to each channel and darkens the LEDs it is not given', () => {
    const frame = encodeWs2812Spi([{ r: 200, g: 10, b: 255 }], 2, 0.5);
    // 200 × 0.5 = 100 = 0b01100100; 10 × 0.5 = 5; 255 × 0.5 = 127.5 → 128.
    expect([...frame.subarray(240, 264)]).toEqual([...bits(5), ...bits(100), ...bits(128)]);
    expect([...frame.subarray(264, 288)]).toEqual([...bits(0), ...bits(0), ...bits(0)]);
    expect([...encodeWs2812Spi([{ r: 255, g: 255, b: 255 }], 1, 0).subarray(240, 264)]).toEqual(Array(24).fill(ZERO));
  });
});

describe('WS2812 over SPI: the driver', () => {
  it('opens /dev/spidev0.0, sets it to 6.4 MHz while it holds it, and writes each frame whole, in order', async () => {
    const root = pi5();
    const { setup, calls } = recordingSetup();
    const ring = await createSpiRing({ count: 2, gpio: 10 }, { root, setup });
    expect(ring.driver).toBe('spi');
    expect(calls).toEqual([{ device: path.join(root, 'dev/spidev0.0'), speed: 6_400_000 }]);
    await Promise.all([ring.show([{ r: 0, g: 255, b: 0 }], 1), ring.show([{ r: 0, g: 0, b: 255 }], 0.2)]);
    await ring.close();
    const written = readFileSync(path.join(root, 'dev/spidev0.0'));
    const frames = [
      encodeWs2812Spi([{ r: 0, g: 255, b: 0 }], 2, 1),
      encodeWs2812Spi([{ r: 0, g: 0, b: 255 }], 2, 0.2),
      encodeWs2812Spi([], 2, 0), // dark on close
    ];
    expect(written.equals(Buffer.concat(frames))).toBe(true);
    await ring.show([{ r: 1, g: 1, b: 1 }], 1);
    expect(readFileSync(path.join(root, 'dev/spidev0.0')).length).toBe(written.length);
  });

  it('says what is wrong: SPI off, no permission, a speed not kept, a ring longer than one transfer', async () => {
    const { setup } = recordingSetup();
    await expect(createSpiRing({ count: 16, gpio: 10 }, { root: pi4(false), setup })).rejects.toMatchObject({ problem: 'no-spi' });
    const locked = pi4();
    chmodSync(path.join(locked, 'dev/spidev0.0'), 0o000);
    if (process.getuid?.() !== 0) {
      await expect(createSpiRing({ count: 16, gpio: 10 }, { root: locked, setup })).rejects.toMatchObject({ problem: 'no-permission' });
    }
    const slow: SpidevSetup = async () => 125_000_000;
    await expect(createSpiRing({ count: 16, gpio: 10 }, { root: pi4(), setup: slow })).rejects.toMatchObject({ problem: 'driver-error' });
    // spidev's default transfer is 4096 bytes: 150 LEDs fit, 151 do not.
    await expect(createSpiRing({ count: 151, gpio: 10 }, { root: pi4(), setup })).rejects.toThrow(/at most 150 LEDs/);
    const big = pi4();
    mkdirSync(path.join(big, 'sys/module/spidev/parameters'), { recursive: true });
    writeFileSync(path.join(big, 'sys/module/spidev/parameters/bufsiz'), '65536\n');
    await (await createSpiRing({ count: 300, gpio: 10 }, { root: big, setup })).close();
  });
});

describe('the spidev speed helper (python3 ioctls)', () => {
  it('runs, and refuses a file that is not an SPI device (the ioctl fails) with a driver error', async () => {
    const root = pi4();
    const outcome = pythonSpidevSetup(path.join(root, 'dev/spidev0.0'), SPI_SPEED_HZ);
    if (spawnSync('python3', ['--version']).error) {
      await expect(outcome).rejects.toMatchObject({ problem: 'driver-missing' });
      return;
    }
    await expect(outcome).rejects.toMatchObject({ problem: 'driver-error', message: expect.stringMatching(/Inappropriate ioctl/) });
  });
});

describe('which driver lights the ring', () => {
  it('picks SPI on a Pi 5 with /dev/spidev0.0, rpi-ws281x being unable to drive it', async () => {
    const root = pi5();
    const detected = await detectBoard(root);
    expect(detected).toMatchObject({ isPi5: true, spidev: true });
    expect(chooseLedDriver(detected, 10, false)).toEqual({ driver: 'spi', gpio: 10, passed: [{ driver: 'ws281x', reason: 'spi-pin' }] });
    const { setup } = recordingSetup();
    const hardware = new Hardware(realDrivers({ root, isRoot: false, spidevSetup: setup }));
    await hardware.configure({ relay: { gpio: 17, inverted: false }, lux: { bus: 1, address: 0x23 }, led: { count: 16, gpio: 10 } });
    const led = hardware.health().find((h) => h.device === 'led');
    expect(led).toMatchObject({ driver: 'spi', state: 'ok', choice: { driver: 'spi' } });
    await hardware.led.show([{ r: 255, g: 0, b: 0 }], 1);
    expect(readFileSync(path.join(root, 'dev/spidev0.0')).length).toBeGreaterThan(0);
    await hardware.close();
  });

  it('picks SPI on a Pi 4 run without root, and rpi-ws281x only as root on another pin', async () => {
    const detected = await detectBoard(pi4());
    expect(chooseLedDriver(detected, 10, false).driver).toBe('spi');
    expect(chooseLedDriver(detected, 10, true).driver).toBe('spi');
    expect(chooseLedDriver(detected, 18, true)).toEqual({
      driver: 'ws281x',
      gpio: 18,
      passed: [{ driver: 'spi', reason: 'spi-pin-only' }],
    });
    expect(chooseLedDriver(detected, 18, false)).toEqual({
      driver: null,
      gpio: 18,
      passed: [
        { driver: 'ws281x', reason: 'needs-root' },
        { driver: 'spi', reason: 'spi-pin-only' },
      ],
    });
  });

  it('reports why nothing lights: SPI off, a PWM pin on a Pi 5, a PWM pin without root', async () => {
    const cases = [
      { root: pi4(false), gpio: 10, isRoot: false, problem: 'no-spi' },
      { root: pi5(), gpio: 18, isRoot: true, problem: 'unsupported-board' },
      { root: pi4(), gpio: 18, isRoot: false, problem: 'needs-root' },
    ];
    for (const c of cases) {
      const hardware = new Hardware(realDrivers({ root: c.root, isRoot: c.isRoot, spidevSetup: recordingSetup().setup }));
      await hardware.configure({ relay: { gpio: 17, inverted: false }, lux: { bus: 1, address: 0x23 }, led: { count: 16, gpio: c.gpio } });
      expect(hardware.health().find((h) => h.device === 'led')).toMatchObject({ state: 'failed', problem: c.problem });
      await hardware.close();
    }
  });
});
