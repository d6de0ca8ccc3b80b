import { readFile } from 'node:fs/promises';
import path from 'node:path';

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
export const CORE_MHZ = 500;
/** The firmware's defaults on the Pi 4 family: 500 MHz at most (550 for 4Kp60), 200 MHz at rest. */
const CORE_MAX_4KP60_MHZ = 550;
const CORE_MIN_MHZ = 200;

/** The boards of the Pi 4 family, as config.txt's model filters tell them apart. */
export type Pi4Variant = 'pi4' | 'pi400' | 'cm4' | 'cm4s';

/** Their `board-type` numbers (the revision code's type field). */
const BOARD_TYPE: Record<Pi4Variant, number> = { pi4: 0x11, pi400: 0x13, cm4: 0x14, cm4s: 0x15 };

/** Model filters of other boards: under them nothing applies to a Pi 4. */
const OTHER_MODELS = new Set(['pi1', 'pi2', 'pi3', 'pi3+', 'pi0', 'pi0w', 'pi02', 'pi5', 'pi500', 'cm5']);

/** Which board of the Pi 4 family, from the device tree's model ("Raspberry Pi 400 Rev 1.0"). */
export function pi4VariantOf(model: string | null): Pi4Variant {
  if (/Raspberry Pi 400/i.test(model ?? '')) return 'pi400';
  if (/Compute Module 4S/i.test(model ?? '')) return 'cm4s';
  if (/Compute Module 4/i.test(model ?? '')) return 'cm4';
  return 'pi4';
}

/**
 * Whether a model filter matches the board: `[pi4]` covers the whole family, `[pi400]`, `[cm4]`,
 * `[cm4s]` and `[board-type=…]` one board each. Null: not a model filter.
 */
function modelMatches(filter: string, variant: Pi4Variant): boolean | null {
  if (filter === 'pi4') return true;
  if (filter === 'pi400' || filter === 'cm4' || filter === 'cm4s') return filter === variant;
  const type = /^board-type=(0x[0-9a-f]+|\d+)$/.exec(filter);
  if (type) return Number(type[1]) === BOARD_TYPE[variant];
  return OTHER_MODELS.has(filter) ? false : null;
}

/** The `key=value` lines that apply to the board, in order (later ones win), with includes inlined. */
export function applyingSettings(lines: readonly string[], variant: Pi4Variant): Map<string, string> {
  // Filters of the same type replace each other, of different types add up; [all] resets them.
  let model = true;
  let other = false;
  let none = false;
  const values = new Map<string, string>();
  for (const raw of lines) {
    const line = raw.replace(/#.*/, '').trim();
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      const filter = section[1]!.trim().toLowerCase();
      if (filter === 'all') [model, other, none] = [true, false, false];
      else if (filter === 'none') none = true;
      else {
        const matches = modelMatches(filter, variant);
        // EDID, HDMI port, GPIO level, serial number, tryboot: not known here, so not counted.
        if (matches === null) other = true;
        else model = matches;
      }
      continue;
    }
    const kv = /^([a-z0-9_]+)\s*=\s*(\S+)$/i.exec(line);
    if (kv && model && !other && !none) values.set(kv[1]!.toLowerCase(), kv[2]!);
  }
  return values;
}

/** The core clock's bounds as the firmware sets them from those settings. */
export function coreClockOf(values: Map<string, string>, config: string): CoreClock {
  const num = (key: string): number | null => {
    const v = values.get(key);
    return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
  };
  // gpu_freq sets core_freq with the other GPU clocks; core_freq, when given, overrides it.
  const max = num('core_freq') ?? num('gpu_freq') ?? (values.get('hdmi_enable_4kp60') === '1' ? CORE_MAX_4KP60_MHZ : CORE_MHZ);
  const min = values.get('force_turbo') === '1' ? max : (num('core_freq_min') ?? num('gpu_freq_min') ?? CORE_MIN_MHZ);
  const mhz = min >= max ? max : null;
  return { fixed: mhz === CORE_MHZ, config, mhz };
}

/** config.txt and the files it includes are small: anything larger is not one. */
const MAX_CONFIG_BYTES = 64 * 1024;
const MAX_INCLUDE_DEPTH = 4;

/**
 * The lines of a config.txt with its `include` lines replaced by the files they name (beside it,
 * as the firmware reads them from the boot partition; a name leaving that folder is skipped).
 */
async function configLines(file: string, depth = 0): Promise<string[] | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const lines: string[] = [];
  for (const line of text.slice(0, MAX_CONFIG_BYTES).split('\n')) {
    const include = /^\s*include\s+(\S+)\s*$/.exec(line.replace(/#.*/, ''));
    if (!include) {
      lines.push(line);
      continue;
    }
    const name = path.normalize(include[1]!);
    if (depth >= MAX_INCLUDE_DEPTH || path.isAbsolute(name) || name.startsWith('..')) continue;
    lines.push(...((await configLines(path.join(path.dirname(file), name), depth + 1)) ?? []));
  }
  return lines;
}

/** Reads the Pi 4's core clock from config.txt (bookworm's place, then the older one). */
export async function readCoreClock(root: string, variant: Pi4Variant): Promise<CoreClock> {
  for (const file of ['boot/firmware/config.txt', 'boot/config.txt']) {
    const lines = await configLines(path.join(root, file));
    if (lines !== null) return coreClockOf(applyingSettings(lines, variant), `/${file}`);
  }
  return { fixed: false, config: null, mhz: null };
}
