import { loadOptionalModule } from '../optional-module.js';
import type { LuxOptions, LuxSensorPort } from './lux.port.js';

interface I2cBus {
  sendByte(address: number, byte: number): Promise<void>;
  i2cRead(address: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }>;
  close(): Promise<void>;
}
interface I2cModule {
  openPromisified(bus: number): Promise<I2cBus>;
}

const isI2c = (m: unknown): m is I2cModule =>
  typeof m === 'object' && m !== null && typeof (m as { openPromisified?: unknown }).openPromisified === 'function';

/** BH1750: one-time high-resolution mode, 120 ms per conversion, 1.2 counts per lux. */
const ONE_TIME_HIGH_RES = 0x20;

export async function createBh1750Sensor(options: LuxOptions): Promise<LuxSensorPort> {
  const i2c = await loadOptionalModule('i2c-bus', isI2c);
  // A missing /dev/i2c-N (I2C not enabled) fails here with ENOENT; see classifyDeviceError.
  const bus = await i2c.openPromisified(options.bus);
  const read = async (): Promise<number> => {
    await bus.sendByte(options.address, ONE_TIME_HIGH_RES);
    await new Promise((resolve) => setTimeout(resolve, 180));
    const { buffer } = await bus.i2cRead(options.address, 2, Buffer.alloc(2));
    return buffer.readUInt16BE(0) / 1.2;
  };
  try {
    // Opening a bus succeeds without a sensor on it; only a reading proves one is there.
    await read();
  } catch (err) {
    await bus.close().catch(() => undefined);
    throw err;
  }
  return { driver: 'bh1750', read, close: () => bus.close() };
}
