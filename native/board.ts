import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

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

export interface CoreClock {
  /**
   * Fixed at 500 MHz (core_freq and core_freq_min both 500, or force_turbo=1 at the default 500):
   * the speed the ring's SPI divider is computed for. Any other value, or a moving clock, makes
   * the bits too slow or too fast for the LEDs.
   */
  fixed: boolean;
  /** The config.txt read (/boot/firmware/config.txt on bookworm), null when none could be read. */
  config: string | null;
  /** The MHz it is pinned at (whether 500 or not), null when it moves. */
  mhz: number | null;
}

/** The Pi 4's core clock the SPI divider expects (its default maximum). */
const CORE_MHZ = 500;

/** The config.txt sections that apply to a Pi 4 (a line under [pi5] or [pi3] does not). */
const PI4_SECTIONS = new Set(['all', 'pi4', 'pi400', 'cm4', 'cm4s', 'board-type=0x11', 'board-type=0x13', 'board-type=0x14']);

/** Reads core_freq, core_freq_min and force_turbo as a Pi 4's firmware would from config.txt. */
export function parseCoreClock(text: string): { core: number | null; min: number | null; turbo: boolean } {
  let applies = true;
  const values = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      applies = PI4_SECTIONS.has(section[1]!.trim().toLowerCase());
      continue;
    }
    const kv = /^([a-z_]+)\s*=\s*(\S+)$/i.exec(line);
    if (applies && kv) values.set(kv[1]!.toLowerCase(), kv[2]!);
  }
  const num = (k: string): number | null => {
    const v = Number(values.get(k));
    return values.has(k) && Number.isFinite(v) ? v : null;
  };
  return { core: num('core_freq'), min: num('core_freq_min'), turbo: values.get('force_turbo') === '1' };
}

async function readCoreClock(root: string): Promise<CoreClock> {
  for (const file of ['boot/firmware/config.txt', 'boot/config.txt']) {
    const text = await readText(path.join(root, file));
    if (text === null) continue;
    const { core, min, turbo } = parseCoreClock(text);
    const mhz = core !== null && core === min ? core : turbo ? (core ?? CORE_MHZ) : null;
    return { fixed: mhz === CORE_MHZ, config: `/${file}`, mhz };
  }
  return { fixed: false, config: null, mhz: null };
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
  const coreClock = isPi4 ? await readCoreClock(root) : null;
  const spidev = await access(path.join(root, 'dev/spidev0.0')).then(
    () => true,
    () => false,
  );
  return { model, gpioChip, isPi5, coreClock, spidev };
}
