import { loadOptionalModule } from '../optional-module.js';
import type { RelayOptions, RelayPort } from './relay.port.js';

interface GpioPin {
  writeSync(value: 0 | 1): void;
  unexport(): void;
}
interface OnoffModule {
  Gpio: { new (gpio: number, direction: 'out'): GpioPin; accessible: boolean };
}

const isOnoff = (m: unknown): m is OnoffModule =>
  typeof m === 'object' && m !== null && typeof (m as { Gpio?: unknown }).Gpio === 'function';

/** Relay on a GPIO line through onoff (sysfs). Throws when the board has no usable GPIO. */
export async function createOnoffRelay(options: RelayOptions): Promise<RelayPort> {
  const onoff = await loadOptionalModule('onoff', isOnoff);
  if (!onoff.Gpio.accessible) throw new Error('GPIO is not accessible on this machine');
  const pin = new onoff.Gpio(options.gpio, 'out');
  const level = (on: boolean): 0 | 1 => (on !== options.inverted ? 1 : 0);
  let on = false;
  pin.writeSync(level(false));
  return {
    driver: 'onoff',
    async set(value) {
      pin.writeSync(level(value));
      on = value;
    },
    isOn: () => on,
    async close() {
      pin.writeSync(level(false));
      pin.unexport();
    },
  };
}
