import type { LuxSensorPort } from './lux.port.js';

/** A sensor whose reading a test sets, and that fails on demand. */
export class FakeLuxSensor implements LuxSensorPort {
  readonly driver = 'fake';
  reads = 0;
  /** When set, every read throws it, as a sensor pulled off the bus would. */
  failure: Error | null = null;

  constructor(public lux = 120) {}

  async read(): Promise<number> {
    this.reads++;
    if (this.failure) throw this.failure;
    return this.lux;
  }

  async close(): Promise<void> {}
}
