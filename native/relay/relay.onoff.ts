import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import type { BoardInfo } from '../board.js';
import { DeviceError } from '../device-error.js';
import { loadOptionalModule } from '../optional-module.js';
import { relayLevel, type RelayOptions, type RelayPort } from './relay.port.js';

export interface GpioPin {
  writeSync(value: 0 | 1): void;
  unexport(): void;
}
export interface OnoffModule {
  Gpio: new (gpio: number, direction: 'high' | 'low') => GpioPin;
}

const isOnoff = (m: unknown): m is OnoffModule =>
  typeof m === 'object' && m !== null && typeof (m as { Gpio?: unknown }).Gpio === 'function';

async function checkSysfsGpio(root: string): Promise<void> {
  try {
    await access(path.join(root, 'sys/class/gpio/export'), constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new DeviceError('no-permission', 'no permission on /sys/class/gpio (add the user to the gpio group)', { cause: err });
    }
    throw new DeviceError('no-gpio', 'this machine has no sysfs GPIO', { cause: err });
  }
}

/**
 * Relay on a GPIO line through onoff (sysfs). The pin is made an output with its off level in one
 * write ("high"/"low" to the direction file), so the light never blinks while the driver opens.
 */
export async function createOnoffRelay(
  options: RelayOptions,
  board: BoardInfo,
  root = '/',
  load: () => Promise<OnoffModule> = () => loadOptionalModule('onoff', isOnoff),
): Promise<RelayPort> {
  await checkSysfsGpio(root);
  const onoff = await load();
  const offLevel = relayLevel(false, options.inverted);
  const pin = new onoff.Gpio(options.gpio + (board.gpioChip?.base ?? 0), offLevel === 1 ? 'high' : 'low');
  let on = false;
  let closed = false;
  const write = (value: boolean): void => {
    pin.writeSync(relayLevel(value, options.inverted));
    on = value;
  };
  return {
    driver: 'onoff',
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
      // Unexporting would hand the line back as an input, floating: an active-low board could
      // then switch on. The pin stays exported at its off level.
    },
  };
}
