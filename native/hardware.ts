import path from 'node:path';
import { detectBoard, type BoardInfo } from './board.js';
import { classifyDeviceError, type DeviceProblem } from './device-error.js';
import { FakeLedRing } from './led/led.fake.js';
import { chooseLedDriver, noLedDriver, type LedDriverChoice } from './led/led-driver-choice.js';
import type { LedOptions, LedRingPort } from './led/led.port.js';
import { createSpiRing } from './led/led.spi.js';
import type { SpidevSetup } from './led/spidev-setup.js';
import { createWs281xRing } from './led/led.ws281x.js';
import { createBh1750Sensor } from './lux/lux.bh1750.js';
import { FakeLuxSensor } from './lux/lux.fake.js';
import type { LuxOptions, LuxSensorPort } from './lux/lux.port.js';
import { FakeRelay } from './relay/relay.fake.js';
import { createCdevRelay, type CdevRelayOptions } from './relay/relay.cdev.js';
import { createSysfsRelay, hasSysfsExport } from './relay/relay.sysfs.js';
import type { RelayOptions, RelayPort } from './relay/relay.port.js';

export type DeviceName = 'relay' | 'lux' | 'led';

export interface DeviceHealth {
  device: DeviceName;
  /** The driver in use: sysfs or gpio-cdev (relay), bh1750, spi or ws281x (ring), or fake. */
  driver: string;
  /** ok: the real device; simulated: fake hardware asked for; failed: a stand-in replaces a device that could not open. */
  state: 'ok' | 'simulated' | 'failed';
  problem: DeviceProblem | null;
  /** The driver's own message, for the logs. */
  detail: string | null;
  /** The LED ring with real drivers: which driver was chosen for it and why the other was not. */
  choice?: LedDriverChoice | null;
}

export interface HardwareOptions {
  relay: RelayOptions;
  lux: LuxOptions;
  led: LedOptions;
}

export const defaultHardwareOptions: HardwareOptions = {
  relay: { gpio: 17, inverted: false },
  lux: { bus: 1, address: 0x23 },
  // SPI0 MOSI: the SPI driver needs no root and works on the Pi 4 and the Pi 5.
  led: { count: 16, gpio: 10 },
};

/** How each device is opened: real drivers on the board, fakes otherwise. */
export interface HardwareDrivers {
  readonly mode: 'auto' | 'fake';
  openRelay(options: RelayOptions): Promise<RelayPort>;
  openLux(options: LuxOptions): Promise<LuxSensorPort>;
  openLed(options: LedOptions): Promise<LedRingPort>;
  /** Which LED driver `openLed` uses for these options, and why not the other (real drivers only). */
  chooseLed?(options: LedOptions): Promise<LedDriverChoice>;
}

interface Slot<P> {
  port: P;
  options: unknown;
  health: DeviceHealth;
}

const sameOptions = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The three devices, each reopened when its options change. A device that fails to open never
 * stops the service: a fake stands in and its health says why, in a form the console can word.
 */
export class Hardware {
  /** Every open, in order: lets tests see that a settings change reopened a driver. */
  readonly opens: { device: DeviceName; options: unknown }[] = [];
  private relaySlot: Slot<RelayPort>;
  private luxSlot: Slot<LuxSensorPort>;
  private ledSlot: Slot<LedRingPort>;
  private readonly now: () => number;

  /**
   * Until configure() runs, fakes stand in (nothing is ever undefined). `simulated` marks them as
   * the devices asked for, with those options, so fake hardware is complete without waiting.
   */
  constructor(
    private readonly drivers: HardwareDrivers,
    now: () => number = Date.now,
    simulated?: { options: HardwareOptions; lux: FakeLuxSensor },
  ) {
    this.now = now;
    const idle = (device: DeviceName): DeviceHealth => ({ device, driver: 'fake', state: 'simulated', problem: null, detail: null });
    const o = simulated?.options;
    this.relaySlot = { port: new FakeRelay(o?.relay, now), options: o?.relay ?? null, health: idle('relay') };
    this.luxSlot = { port: simulated?.lux ?? new FakeLuxSensor(), options: o?.lux ?? null, health: idle('lux') };
    this.ledSlot = { port: new FakeLedRing(o?.led, now), options: o?.led ?? null, health: idle('led') };
    if (o) this.opens.push({ device: 'relay', options: o.relay }, { device: 'lux', options: o.lux }, { device: 'led', options: o.led });
  }

  get mode(): 'auto' | 'fake' {
    return this.drivers.mode;
  }
  get relay(): RelayPort {
    return this.relaySlot.port;
  }
  get lux(): LuxSensorPort {
    return this.luxSlot.port;
  }
  get led(): LedRingPort {
    return this.ledSlot.port;
  }

  health(): DeviceHealth[] {
    return [this.relaySlot.health, this.luxSlot.health, this.ledSlot.health].map((h) => ({ ...h }));
  }

  /** One line per device that is not what was asked for, for the log and the status card. */
  get notes(): string[] {
    return this.health()
      .filter((h) => h.state === 'failed')
      .map((h) => `${h.device}: ${h.problem ?? 'driver-error'} (${h.detail ?? ''})`);
  }

  /** Opens what is not open yet and reopens each device whose options changed; returns what was (re)opened. */
  async configure(options: HardwareOptions): Promise<DeviceName[]> {
    const changed: DeviceName[] = [];
    if (!sameOptions(this.relaySlot.options, options.relay)) {
      // The old pin goes to its off level before another one is driven.
      await this.relaySlot.port.close().catch(() => undefined);
      this.relaySlot = await this.open(
        'relay',
        options.relay,
        () => this.drivers.openRelay(options.relay),
        () => new FakeRelay(options.relay, this.now),
      );
      changed.push('relay');
    }
    if (!sameOptions(this.luxSlot.options, options.lux)) {
      await this.luxSlot.port.close().catch(() => undefined);
      this.luxSlot = await this.open(
        'lux',
        options.lux,
        () => this.drivers.openLux(options.lux),
        () => new FakeLuxSensor(),
      );
      changed.push('lux');
    }
    if (!sameOptions(this.ledSlot.options, options.led)) {
      await this.ledSlot.port.close().catch(() => undefined);
      const choice = (await this.drivers.chooseLed?.(options.led)) ?? null;
      const slot = await this.open(
        'led',
        options.led,
        () => this.drivers.openLed(options.led),
        () => new FakeLedRing(options.led, this.now),
      );
      this.ledSlot = { ...slot, health: { ...slot.health, choice } };
      changed.push('led');
    }
    return changed;
  }

  /** Reopens the lux sensor after it failed (plugged in later, bus back). */
  async retryLux(): Promise<void> {
    if (this.luxSlot.health.state !== 'failed') return;
    const options = this.luxSlot.options as LuxOptions;
    this.luxSlot = { ...this.luxSlot, options: null };
    await this.configure({ relay: this.relaySlot.options as RelayOptions, lux: options, led: this.ledSlot.options as LedOptions });
  }

  /** Marks the sensor failed after a reading error, or healthy again after a good one. */
  reportLux(error: unknown): void {
    const health = this.luxSlot.health;
    if (error === null) {
      if (health.state === 'failed' && this.luxSlot.port.driver !== 'fake') {
        this.luxSlot.health = { ...health, state: 'ok', problem: null, detail: null };
      }
      return;
    }
    this.luxSlot.health = {
      ...health,
      state: 'failed',
      problem: classifyDeviceError(error, 'lux'),
      detail: error instanceof Error ? error.message : 'unknown error',
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.relaySlot.port.close(), this.luxSlot.port.close(), this.ledSlot.port.close()]);
  }

  private async open<P extends { driver: string }>(
    device: DeviceName,
    options: unknown,
    real: () => Promise<P>,
    fake: () => P,
  ): Promise<Slot<P>> {
    this.opens.push({ device, options });
    try {
      const port = await real();
      const state = port.driver === 'fake' ? 'simulated' : 'ok';
      return { port, options, health: { device, driver: port.driver, state, problem: null, detail: null } };
    } catch (err) {
      return {
        port: fake(),
        options,
        health: {
          device,
          driver: 'fake',
          state: 'failed',
          problem: classifyDeviceError(err, device),
          detail: err instanceof Error ? err.message : String(err),
        },
      };
    }
  }
}

/** Hardware whose devices are the recording fakes (the getters name their real type). */
export class FakeHardware extends Hardware {
  override get relay(): FakeRelay {
    return super.relay as FakeRelay;
  }
  override get lux(): FakeLuxSensor {
    return super.lux as FakeLuxSensor;
  }
  override get led(): FakeLedRing {
    return super.led as FakeLedRing;
  }
}

export function fakeDrivers(now: () => number = Date.now, lux: FakeLuxSensor = new FakeLuxSensor()): HardwareDrivers {
  return {
    mode: 'fake',
    openRelay: async (options) => new FakeRelay(options, now),
    // The same sensor across reopenings, so a test's light level stays set.
    openLux: async () => lux,
    openLed: async (options) => new FakeLedRing(options, now),
  };
}

export interface RealDriverOptions {
  /** The file-system root the board is read from: `/`, or a fake tree in tests. */
  root?: string;
  /** Whether Boothdeck runs as root (rpi-ws281x needs it). */
  isRoot?: boolean;
  /** How the spidev's speed is set (tests replace the python3 helper). */
  spidevSetup?: SpidevSetup;
  /** The GPIO character device's helper options (tests). */
  cdev?: CdevRelayOptions;
}

/** Real drivers, reading the board under `root`. */
export function realDrivers(options: RealDriverOptions = {}): HardwareDrivers {
  const root = options.root ?? '/';
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  let board: Promise<BoardInfo> | undefined;
  const boardInfo = (): Promise<BoardInfo> => (board ??= detectBoard(root));
  const chooseLed = async (led: LedOptions): Promise<LedDriverChoice> => chooseLedDriver(await boardInfo(), led.gpio, isRoot);
  return {
    mode: 'auto',
    // The legacy sysfs export where the kernel still has it, else the GPIO character device.
    openRelay: async (relay) =>
      (await hasSysfsExport(root))
        ? createSysfsRelay(relay, await boardInfo(), root)
        : createCdevRelay(relay, { devDir: path.join(root, 'dev'), ...options.cdev }),
    openLux: (lux) => createBh1750Sensor(lux),
    chooseLed,
    openLed: async (led) => {
      const choice = await chooseLed(led);
      if (choice.driver === 'spi') return createSpiRing(led, { root, setup: options.spidevSetup });
      // rpi-ws281x-native is loaded only here, for a Pi 4 run as root on a PWM pin.
      if (choice.driver === 'ws281x') return createWs281xRing(led, await boardInfo());
      throw noLedDriver(choice);
    },
  };
}

/** Fake hardware, opened at once with the default options (tests and `BOOTHDECK_HARDWARE=fake`). */
export function createFakeHardware(now: () => number = Date.now, options: HardwareOptions = defaultHardwareOptions): FakeHardware {
  const lux = new FakeLuxSensor();
  return new FakeHardware(fakeDrivers(now, lux), now, { options, lux });
}

/**
 * The real-or-fake choice, made once at composition. Real devices open only at configure(), with
 * the stored settings: opening a default pin first could drive a line the booth uses otherwise.
 */
export function createHardware(mode: 'auto' | 'fake'): Hardware {
  return mode === 'fake' ? createFakeHardware() : new Hardware(realDrivers());
}
