/**
 * What can be wrong with a device, as a code the console turns into a sentence for the operator.
 * The raw driver message stays in the logs.
 */
export type DeviceProblem =
  | 'driver-missing'
  | 'no-gpio'
  | 'no-permission'
  | 'no-i2c-bus'
  | 'no-sensor'
  | 'i2c-error'
  | 'unsupported-board'
  | 'driver-error'
  /** /dev/spidev0.0 is missing: SPI is off. */
  | 'no-spi'
  /** The LED pin is not SPI's and its only driver (rpi-ws281x) needs root. */
  | 'needs-root';

export class DeviceError extends Error {
  override name = 'DeviceError';
  constructor(
    readonly problem: DeviceProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const codeOf = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
    ? (err as { code: string }).code
    : undefined;

/** Sorts a driver's failure into a problem the operator can act on. */
export function classifyDeviceError(err: unknown, device: 'relay' | 'lux' | 'led'): DeviceProblem {
  if (err instanceof DeviceError) return err.problem;
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (/Optional module .* is not available/.test(message)) return 'driver-missing';
  if (code === 'EACCES' || code === 'EPERM' || /permission|mmap\(\) failed|gpiomem/i.test(message)) return 'no-permission';
  if (device === 'lux') {
    if (code === 'ENOENT') return 'no-i2c-bus';
    // A bus with nothing at the address answers "no such device" or a remote I/O error.
    if (code === 'ENXIO' || code === 'EREMOTEIO' || code === 'EIO' || code === 'ETIMEDOUT') return 'no-sensor';
    return 'i2c-error';
  }
  if (code === 'ENOENT') return 'no-gpio';
  return 'driver-error';
}
