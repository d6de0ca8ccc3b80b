import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ThrottleStatus } from '../contract/dashboard.contract.js';
import type { SystemPort } from '../system/system.port.js';

/** What the board tells about itself; every reading may be missing on a machine that is not a Pi. */
export interface HostProbe {
  diskSpace(folder: string): Promise<{ free: number; total: number } | null>;
  cpuTemperature(): Promise<number | null>;
  throttle(): Promise<ThrottleStatus | null>;
  uptimeSeconds(): number;
}

/** Bits of `vcgencmd get_throttled` (Raspberry Pi firmware documentation). */
export function parseThrottled(output: string): ThrottleStatus | null {
  const match = /throttled=(0x[0-9a-f]+)/i.exec(output);
  if (!match?.[1]) return null;
  const bits = Number.parseInt(match[1], 16);
  const bit = (n: number): boolean => (bits & (1 << n)) !== 0;
  return {
    raw: match[1],
    under_voltage_now: bit(0),
    frequency_capped_now: bit(1),
    throttled_now: bit(2),
    soft_temp_limit_now: bit(3),
    under_voltage_since_boot: bit(16),
    throttled_since_boot: bit(18),
  };
}

/** Reads /sys (under an injectable root, for tests) and asks vcgencmd through the system port. */
export function createHostProbe(system: SystemPort, sysRoot = '/sys'): HostProbe {
  return {
    async diskSpace(folder) {
      try {
        const s = await statfs(folder);
        return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
      } catch {
        return null;
      }
    },
    async cpuTemperature() {
      try {
        const text = await readFile(path.join(sysRoot, 'class', 'thermal', 'thermal_zone0', 'temp'), 'utf8');
        const milli = Number(text.trim());
        return Number.isFinite(milli) ? Math.round(milli / 100) / 10 : null;
      } catch {
        return null;
      }
    },
    async throttle() {
      try {
        const result = await system.run('vcgencmd', ['get_throttled'], { timeoutMs: 3000 });
        return result.code === 0 ? parseThrottled(result.stdout) : null;
      } catch {
        return null;
      }
    },
    uptimeSeconds: () => Math.round(os.uptime()),
  };
}
