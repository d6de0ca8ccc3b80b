import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pi4VariantOf, readCoreClock, type CoreClock } from './pi4-core-clock.js';

export type { CoreClock } from './pi4-core-clock.js';

/** The labels of the SoC's own GPIO controller: BCM2835/2837 (Pi 3 and older), BCM2711 (Pi 4), RP1 (Pi 5). */
const SOC_GPIO_LABELS = ['pinctrl-rp1', 'pinctrl-bcm2711', 'pinctrl-bcm2835'] as const;

export interface BoardInfo {
  /** From the device tree, such as "Raspberry Pi 5 Model B Rev 1.0"; null off a Pi. */
  model: string | null;
  /** The SoC's GPIO chip in sysfs; its base is added to BCM numbers (0 before kernel 6.6, 512 or 571 after). */
  gpioChip: { label: string; base: number } | null;
  isPi5: boolean;
  /**
   * A Pi 4 only (its SPI clock is divided from the core clock, which moves with the GPU's load
   * unless config.txt fixes it): whether it is fixed, and from which file. Null on other boards.
   */
  coreClock: CoreClock | null;
  /** /dev/spidev0.0 exists: SPI is on (`dtparam=spi=on`), so the ring can be driven on GPIO 10. */
  spidev: boolean;
}

async function readText(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).replace(/\0/g, '').trim();
  } catch {
    return null;
  }
}

/**
 * Reads what the kernel says about the board. `root` is `/` on the board and a fake tree in tests.
 * Since kernel 6.6 sysfs GPIO numbers start at the chip's base instead of 0, so BCM 17 is 529 on a
 * Pi 4 and 588 on a Pi 5.
 */
export async function detectBoard(root = '/'): Promise<BoardInfo> {
  const gpioDir = path.join(root, 'sys/class/gpio');
  let entries: string[];
  try {
    entries = (await readdir(gpioDir)).filter((name) => name.startsWith('gpiochip'));
  } catch {
    entries = [];
  }
  const chips: { label: string; base: number }[] = [];
  for (const entry of entries) {
    const label = await readText(path.join(gpioDir, entry, 'label'));
    const base = Number(await readText(path.join(gpioDir, entry, 'base')));
    if (label !== null && Number.isInteger(base)) chips.push({ label, base });
  }
  const gpioChip = SOC_GPIO_LABELS.map((label) => chips.find((c) => c.label === label)).find((c) => c !== undefined) ?? null;
  const model = await readText(path.join(root, 'proc/device-tree/model'));
  const isPi5 = gpioChip?.label === 'pinctrl-rp1' || /Raspberry Pi 5/i.test(model ?? '');
  const isPi4 = !isPi5 && (gpioChip?.label === 'pinctrl-bcm2711' || /Raspberry Pi (4|400)|Compute Module 4/i.test(model ?? ''));
  const coreClock = isPi4 ? await readCoreClock(root, pi4VariantOf(model)) : null;
  const spidev = await access(path.join(root, 'dev/spidev0.0')).then(
    () => true,
    () => false,
  );
  return { model, gpioChip, isPi5, coreClock, spidev };
}
