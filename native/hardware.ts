import { FakeLedRing } from './led/led.fake.js';
import type { LedOptions, LedRingPort } from './led/led.port.js';
import { createWs281xRing } from './led/led.ws281x.js';
import { createBh1750Sensor } from './lux/lux.bh1750.js';
import { FakeLuxSensor } from './lux/lux.fake.js';
import type { LuxOptions, LuxSensorPort } from './lux/lux.port.js';
import { FakeRelay } from './relay/relay.fake.js';
import { createOnoffRelay } from './relay/relay.onoff.js';
import type { RelayOptions, RelayPort } from './relay/relay.port.js';

export interface Hardware {
  relay: RelayPort;
  lux: LuxSensorPort;
  led: LedRingPort;
  /** Why a real driver was not used, per device, for the dashboard. */
  notes: string[];
  close(): Promise<void>;
}

export interface HardwareOptions {
  relay: RelayOptions;
  lux: LuxOptions;
  led: LedOptions;
}

export const defaultHardwareOptions: HardwareOptions = {
  relay: { gpio: 17, inverted: false },
  lux: { bus: 1, address: 0x23 },
  led: { count: 16, gpio: 18 },
};

export function createFakeHardware(): Hardware & { relay: FakeRelay; lux: FakeLuxSensor; led: FakeLedRing } {
  const relay = new FakeRelay();
  const lux = new FakeLuxSensor();
  const led = new FakeLedRing();
  return { relay, lux, led, notes: [], close: async () => undefined };
}

async function orFake<T>(label: string, real: () => Promise<T>, fake: () => T, notes: string[]): Promise<T> {
  try {
    return await real();
  } catch (err) {
    notes.push(`${label}: simulated (${err instanceof Error ? err.message : String(err)})`);
    return fake();
  }
}

/**
 * The real-or-fake choice, made once at composition. `auto` tries each real driver and falls
 * back to a simulated device, so the service runs on a laptop as on the board.
 */
export async function createHardware(mode: 'auto' | 'fake', options: HardwareOptions = defaultHardwareOptions): Promise<Hardware> {
  if (mode === 'fake') return createFakeHardware();
  const notes: string[] = [];
  const relay = await orFake(
    'relay',
    () => createOnoffRelay(options.relay),
    () => new FakeRelay(),
    notes,
  );
  const lux = await orFake(
    'lux sensor',
    () => createBh1750Sensor(options.lux),
    () => new FakeLuxSensor(),
    notes,
  );
  const led = await orFake(
    'LED ring',
    () => createWs281xRing(options.led),
    () => new FakeLedRing(),
    notes,
  );
  return {
    relay,
    lux,
    led,
    notes,
    async close() {
      await Promise.allSettled([relay.close(), lux.close(), led.close()]);
    },
  };
}
