import { access, constants, open, writeFile, type FileHandle } from 'node:fs/promises';
import { writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BoardInfo } from '../board.js';
import { DeviceError } from '../device-error.js';
import { relayLevel, type RelayOptions, type RelayPort } from './relay.port.js';

/** After an export, udev gives the gpio group its files a moment later: wait at most this long. */
const UDEV_WAIT_MS = 2000;
const UDEV_POLL_MS = 50;

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** The legacy sysfs export is there and writable (kernels built with CONFIG_GPIO_SYSFS_LEGACY or older). */
export async function hasSysfsExport(root: string): Promise<boolean> {
  return access(path.join(root, 'sys/class/gpio/export'), constants.F_OK).then(
    () => true,
    () => false,
  );
}

async function waitWritable(file: string): Promise<void> {
  const until = performance.now() + UDEV_WAIT_MS;
  for (;;) {
    try {
      await access(file, constants.W_OK);
      return;
    } catch (err) {
      if (performance.now() > until) {
        const code = codeOf(err);
        if (code === 'EACCES' || code === 'EPERM') {
          throw new DeviceError('no-permission', `no permission on ${file} (add the user to the gpio group)`, { cause: err });
        }
        throw new DeviceError('no-gpio', `${file} did not appear after the export`, { cause: err });
      }
      await sleep(UDEV_POLL_MS);
    }
  }
}

/**
 * The relay through the legacy sysfs GPIO interface, with plain file writes: export the pin
 * (its number is the BCM number plus the SoC chip's base on kernels 6.6+), make it an output at
 * its off level in one write ("high"/"low" to `direction`: the light never blinks at open), then
 * write its value for each switch. The pin stays exported at its off level after close and after
 * the process: unexporting would leave the line floating, and the unit's ExecStopPost writes the
 * same value file.
 */
export async function createSysfsRelay(options: RelayOptions, board: BoardInfo, root = '/'): Promise<RelayPort> {
  const gpioDir = path.join(root, 'sys/class/gpio');
  const pin = options.gpio + (board.gpioChip?.base ?? 0);
  const dir = path.join(gpioDir, `gpio${pin}`);
  try {
    await writeFile(path.join(gpioDir, 'export'), String(pin));
  } catch (err) {
    const code = codeOf(err);
    // EBUSY: exported already (by a previous run, which left it at its off level).
    if (code === 'EACCES' || code === 'EPERM') {
      throw new DeviceError('no-permission', `no permission on ${gpioDir}/export (add the user to the gpio group)`, { cause: err });
    }
    if (code === 'ENOENT') throw new DeviceError('no-gpio', 'this machine has no sysfs GPIO export', { cause: err });
    if (code !== 'EBUSY') throw err;
  }
  await waitWritable(path.join(dir, 'direction'));
  await waitWritable(path.join(dir, 'value'));
  const off = relayLevel(false, options.inverted);
  await writeFile(path.join(dir, 'direction'), off === 1 ? 'high' : 'low');
  const valueFile = path.join(dir, 'value');
  const handle: FileHandle = await open(valueFile, 'r+');
  let on = false;
  let closed = false;
  // The direction write set the level already; the value file says so too (and a stand-in board has no kernel to do it).
  writeSync(handle.fd, String(off), 0);
  // Synchronous, at position 0: the exit handlers cannot wait, and a value file takes one write.
  const write = (value: boolean): void => {
    writeSync(handle.fd, String(relayLevel(value, options.inverted)), 0);
    on = value;
  };
  return {
    driver: 'sysfs',
    offSwitch: { interface: 'sysfs', value: valueFile, off },
    async set(value) {
      if (!closed) write(value);
    },
    isOn: () => on,
    forceOffSync() {
      if (!closed) write(false);
    },
    async close() {
      if (closed) return;
      write(false);
      closed = true;
      await handle.close();
    },
  };
}
