import type { LuxSensorPort } from './lux.port.js';

export class FakeLuxSensor implements LuxSensorPort {
  readonly driver = 'fake';
  reads = 0;

  constructor(public lux = 120) {}

  async read(): Promise<number> {
    this.reads++;
    return this.lux;
  }

  async close(): Promise<void> {}
}
