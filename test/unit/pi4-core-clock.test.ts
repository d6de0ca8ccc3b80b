import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectBoard } from '../../native/board.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A board of the Pi 4 family (its device-tree model) with the boot partition's files given. */
function board(model: string, boot: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-config-txt-'));
  roots.push(root);
  mkdirSync(path.join(root, 'sys/class/gpio/gpiochip512'), { recursive: true });
  writeFileSync(path.join(root, 'sys/class/gpio/gpiochip512/label'), 'pinctrl-bcm2711\n');
  writeFileSync(path.join(root, 'sys/class/gpio/gpiochip512/base'), '512\n');
  mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
  writeFileSync(path.join(root, 'proc/device-tree/model'), `${model}\0`);
  mkdirSync(path.join(root, 'boot/firmware'), { recursive: true });
  for (const [name, text] of Object.entries(boot)) writeFileSync(path.join(root, 'boot/firmware', name), text);
  return root;
}

const PI4 = 'Raspberry Pi 4 Model B Rev 1.5';
const PI400 = 'Raspberry Pi 400 Rev 1.0';
const CM4 = 'Raspberry Pi Compute Module 4 Rev 1.0';
const FIXED = 'core_freq=500\ncore_freq_min=500\n';

const clockOf = async (model: string, config: string, others: Record<string, string> = {}) =>
  (await detectBoard(board(model, { 'config.txt': config, ...others }))).coreClock;

describe("a Pi 4's core clock, read from config.txt as its firmware reads it", () => {
  it('counts [pi400], [cm4] and [board-type=…] lines only on that board ([pi4] on the whole family)', async () => {
    expect(await clockOf(PI4, `[pi400]\n${FIXED}[all]\n`)).toMatchObject({ fixed: false, mhz: null });
    expect(await clockOf(PI400, `[pi400]\n${FIXED}[all]\n`)).toMatchObject({ fixed: true, mhz: 500 });
    expect(await clockOf(PI4, `[cm4]\n${FIXED}`)).toMatchObject({ fixed: false });
    expect(await clockOf(CM4, `[cm4]\n${FIXED}`)).toMatchObject({ fixed: true });
    expect(await clockOf(CM4, `[pi4]\n${FIXED}`)).toMatchObject({ fixed: true });
    expect(await clockOf(PI4, `[board-type=0x13]\n${FIXED}`)).toMatchObject({ fixed: false });
    expect(await clockOf(PI4, `[board-type=0x11]\n${FIXED}`)).toMatchObject({ fixed: true });
  });

  it('reads the files config.txt includes, where the include stands', async () => {
    const included = { 'extraconfig.txt': FIXED };
    expect(await clockOf(PI4, 'dtparam=spi=on\ninclude extraconfig.txt\n', included)).toMatchObject({
      fixed: true,
      config: '/boot/firmware/config.txt',
    });
    // Under a filter that does not match, the included lines do not apply either.
    expect(await clockOf(PI4, '[pi5]\ninclude extraconfig.txt\n[all]\n', included)).toMatchObject({ fixed: false });
    // A later line wins over the included ones.
    expect(await clockOf(PI4, 'include extraconfig.txt\ncore_freq_min=200\n', included)).toMatchObject({ fixed: false });
  });

  it('never reads an include outside the boot folder', async () => {
    const root = board(PI4, { 'config.txt': 'include ../../outside.txt\n' });
    writeFileSync(path.join(root, 'outside.txt'), FIXED);
    expect((await detectBoard(root)).coreClock).toMatchObject({ fixed: false });
  });

  it('does not count lines under [none], nor under filters it cannot evaluate (EDID, GPIO, serial number)', async () => {
    expect(await clockOf(PI4, `[none]\n${FIXED}`)).toMatchObject({ fixed: false });
    expect(await clockOf(PI4, `[EDID=DEL-DELL_U2422H]\n${FIXED}[all]\n`)).toMatchObject({ fixed: false });
    // Filters of different types add up: [gpio4=1] still holds under the [pi4] that follows it.
    expect(await clockOf(PI4, `[gpio4=1]\n[pi4]\n${FIXED}`)).toMatchObject({ fixed: false });
    expect(await clockOf(PI4, `[0x12345678]\n${FIXED}[all]\n${FIXED}`)).toMatchObject({ fixed: true });
  });

  it("takes the firmware's defaults and gpu_freq: core_freq_min=500 alone fixes it, 4Kp60 with force_turbo runs at 550", async () => {
    expect(await clockOf(PI4, 'core_freq_min=500\n')).toMatchObject({ fixed: true, mhz: 500 });
    expect(await clockOf(PI4, 'gpu_freq=500\ngpu_freq_min=500\n')).toMatchObject({ fixed: true, mhz: 500 });
    expect(await clockOf(PI4, 'force_turbo=1\n')).toMatchObject({ fixed: true, mhz: 500 });
    expect(await clockOf(PI4, 'hdmi_enable_4kp60=1\nforce_turbo=1\n')).toMatchObject({ fixed: false, mhz: 550 });
    expect(await clockOf(PI4, 'core_freq=500\n')).toMatchObject({ fixed: false, mhz: null });
  });
});
