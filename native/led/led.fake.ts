import type { LedRingPort, Rgb } from './led.port.js';

export class FakeLedRing implements LedRingPort {
  readonly driver = 'fake';
  color: Rgb = { r: 0, g: 0, b: 0 };
  brightness = 0;

  async fill(color: Rgb, brightness: number): Promise<void> {
    this.color = { ...color };
    this.brightness = brightness;
  }

  async off(): Promise<void> {
    this.brightness = 0;
  }

  async close(): Promise<void> {
    await this.off();
  }
}
