import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DeviceError } from '../device-error.js';
import type { LedOptions, LedRingPort } from './led.port.js';
import { pythonSpidevSetup, type SpidevSetup } from './spidev-setup.js';
import { encodeWs2812Spi, RESET_BYTES, BYTES_PER_LED, SPI_SPEED_HZ } from './ws2812-spi.js';

/** SPI0's first device: MOSI is GPIO 10 (pin 19) on the Pi 4 and the Pi 5 alike. */
export const SPIDEV_PATH = 'dev/spidev0.0';
export const SPI_MOSI_GPIO = 10;
/** spidev's default largest transfer; `spidev.bufsiz=` on the kernel command line raises it. */
const DEFAULT_BUFSIZ = 4096;

export interface SpiRingOptions {
  /** The file-system root: `/` on the board, a temp folder in tests. */
  root?: string;
  setup?: SpidevSetup;
}

const errnoOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

async function spidevBufsiz(root: string): Promise<number> {
  try {
    const n = Number((await readFile(path.join(root, 'sys/module/spidev/parameters/bufsiz'), 'utf8')).trim());
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_BUFSIZ;
  } catch {
    return DEFAULT_BUFSIZ;
  }
}

/**
 * The WS2812 ring on SPI0's MOSI (GPIO 10) through /dev/spidev0.0: needs only the `spi` group,
 * no root, and works on the Pi 4 and the Pi 5 (whose RP1 has no PWM/DMA for rpi-ws281x). Each
 * frame is one write of the encoded bit pattern, so one transfer with no gap the LEDs would read
 * as a latch. The device stays open while the ring is: the speed set for it lasts only so long.
 */
export async function createSpiRing(options: LedOptions, spi: SpiRingOptions = {}): Promise<LedRingPort> {
  const root = spi.root ?? '/';
  const device = path.join(root, SPIDEV_PATH);
  const frameBytes = RESET_BYTES * 2 + options.count * BYTES_PER_LED;
  const bufsiz = await spidevBufsiz(root);
  if (frameBytes > bufsiz) {
    const most = Math.floor((bufsiz - RESET_BYTES * 2) / BYTES_PER_LED);
    throw new DeviceError(
      'driver-error',
      `${options.count} LEDs need ${frameBytes} bytes per SPI transfer, over spidev's ${bufsiz}: at most ${most} LEDs, or raise spidev.bufsiz`,
    );
  }
  let handle: FileHandle;
  try {
    handle = await open(device, 'r+');
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'EACCES' || code === 'EPERM') {
      throw new DeviceError('no-permission', `no permission on ${device} (add the user to the spi group)`, { cause: err });
    }
    throw new DeviceError('no-spi', `${device} is missing: SPI is off (dtparam=spi=on in config.txt)`, { cause: err });
  }
  try {
    const speed = await (spi.setup ?? pythonSpidevSetup)(device, SPI_SPEED_HZ);
    if (speed !== SPI_SPEED_HZ) throw new DeviceError('driver-error', `the SPI device kept ${speed} Hz instead of ${SPI_SPEED_HZ} Hz`);
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  let closed = false;
  // One frame at a time, in order: a frame written while another is under way would be cut.
  let queue: Promise<void> = Promise.resolve();
  const send = (frame: Buffer): Promise<void> => {
    const run = async (): Promise<void> => {
      if (closed) return;
      // No position: a spidev cannot seek, so a positioned write (pwrite) would fail.
      const { bytesWritten } = await handle.write(frame, 0, frame.length, null);
      if (bytesWritten !== frame.length) throw new Error(`SPI write cut short: ${bytesWritten} of ${frame.length} bytes`);
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
  return {
    driver: 'spi',
    count: options.count,
    show: (pixels, brightness) => send(encodeWs2812Spi(pixels, options.count, brightness)),
    off: () => send(encodeWs2812Spi([], options.count, 0)),
    async close() {
      if (closed) return;
      await send(encodeWs2812Spi([], options.count, 0)).catch(() => undefined);
      closed = true;
      await queue;
      await handle.close();
    },
  };
}
