import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { RelayOffSwitch } from '../../native/relay/relay.port.js';
import { writeFileAtomic } from '../core/fs/atomic-write.js';

/** The file's name in the user's runtime folder (`%t/boothdeck/` of the systemd user unit). */
export const RELAY_OFF_SWITCH_NAME = 'boothdeck/relay-off';

/**
 * Where the relay's off switch is written: the systemd user manager gives every unit of the
 * user XDG_RUNTIME_DIR (/run/user/UID, a tmpfs gone at reboot, when no pin is driven any more),
 * and the unit's ExecStopPost script reads the same place. Without it (a plain shell), nowhere.
 */
export function relayOffSwitchPath(runtimeDir: string | undefined): string | undefined {
  return runtimeDir && path.isAbsolute(runtimeDir) ? path.join(runtimeDir, RELAY_OFF_SWITCH_NAME) : undefined;
}

/**
 * The off switch as `deploy/boothdeck-relay-off` reads it: one `key=value` per line, nothing but
 * the interface, a device path Boothdeck opened, numbers, and the off level.
 */
export function formatRelayOffSwitch(s: RelayOffSwitch): string {
  const head = '# The flash relay Boothdeck drives: deploy/boothdeck-relay-off sets it to its off level once the service has stopped.\n';
  if (s.interface === 'sysfs') return `${head}interface=sysfs\nvalue=${s.value}\noff=${s.off}\n`;
  return `${head}interface=cdev\nchip=${s.chip}\nline=${s.line}\noff=${s.off}\n`;
}

export async function writeRelayOffSwitch(file: string, s: RelayOffSwitch): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, formatRelayOffSwitch(s), 0o600);
}

/**
 * No pin to switch off (the relay reopened on a stand-in, or fake hardware): the switch of a pin
 * Boothdeck no longer drives goes, lest the unit drive a pin the operator moved the relay off.
 */
export async function removeRelayOffSwitch(file: string): Promise<void> {
  await rm(file, { force: true });
}
