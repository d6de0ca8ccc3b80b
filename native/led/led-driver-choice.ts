import type { BoardInfo, CoreClock } from '../board.js';
import { DeviceError, type DeviceProblem } from '../device-error.js';
import { SPI_MOSI_GPIO } from './led.spi.js';

export type LedDriverName = 'spi' | 'ws281x';
export type LedPassReason = 'spi-pin' | 'spi-pin-only' | 'needs-root' | 'pi5' | 'no-spidev';

export interface LedDriverChoice {
  driver: LedDriverName | null;
  gpio: number;
  passed: { driver: LedDriverName; reason: LedPassReason }[];
  /** SPI on a Pi 4: whether config.txt fixes the core clock its SPI clock is divided from. */
  core_clock?: CoreClock;
}

/**
 * Which driver lights the ring, and why the other does not. SPI is the default: it needs only
 * the `spi` group and works on the Pi 4 and the Pi 5, but it can drive only GPIO 10 (SPI0 MOSI).
 * rpi-ws281x drives the Pi 4's PWM pins (18, 12, …) with DMA, which needs root, and cannot work
 * on a Pi 5 (the RP1 chip has neither): it is kept for a Pi 4 run as root on another pin.
 */
export function chooseLedDriver(board: BoardInfo, gpio: number, isRoot: boolean): LedDriverChoice {
  if (gpio === SPI_MOSI_GPIO) {
    const passed: LedDriverChoice['passed'] = [{ driver: 'ws281x', reason: 'spi-pin' }];
    if (!board.spidev) passed.unshift({ driver: 'spi', reason: 'no-spidev' });
    const choice: LedDriverChoice = { driver: board.spidev ? 'spi' : null, gpio, passed };
    if (board.coreClock) choice.core_clock = board.coreClock;
    return choice;
  }
  const spi = { driver: 'spi', reason: 'spi-pin-only' } as const;
  if (board.isPi5) return { driver: null, gpio, passed: [{ driver: 'ws281x', reason: 'pi5' }, spi] };
  if (!isRoot) return { driver: null, gpio, passed: [{ driver: 'ws281x', reason: 'needs-root' }, spi] };
  return { driver: 'ws281x', gpio, passed: [spi] };
}

/** The problem to report when no driver can light the ring. */
export function noLedDriver(choice: LedDriverChoice): DeviceError {
  const reasons = new Set(choice.passed.map((p) => p.reason));
  const problem: DeviceProblem = reasons.has('no-spidev') ? 'no-spi' : reasons.has('pi5') ? 'unsupported-board' : 'needs-root';
  return new DeviceError(
    problem,
    `no LED driver for GPIO ${choice.gpio}: ${choice.passed.map((p) => `${p.driver} ${p.reason}`).join(', ')}`,
  );
}
