import { loadOptionalModule } from '../optional-module.js';
import type { LedOptions, LedRingPort } from './led.port.js';

interface Channel {
  array: Uint32Array;
  brightness: number;
}
interface Ws281xModule {
  (count: number, options: { gpio: number; stripType?: string }): Channel;
  render(): void;
  reset(): void;
  finalize(): void;
}

const isWs281x = (m: unknown): m is Ws281xModule => typeof m === 'function' && typeof (m as { render?: unknown }).render === 'function';

/** WS281x ring through rpi-ws281x-native; the module throws on anything but a Pi, hence lazy. */
export async function createWs281xRing(options: LedOptions): Promise<LedRingPort> {
  const ws281x = await loadOptionalModule('rpi-ws281x-native', isWs281x);
  const channel = ws281x(options.count, { gpio: options.gpio, stripType: 'ws2812' });
  return {
    driver: 'ws281x',
    async fill(color, brightness) {
      channel.brightness = Math.round(Math.min(1, Math.max(0, brightness)) * 255);
      channel.array.fill(((color.r & 0xff) << 16) | ((color.g & 0xff) << 8) | (color.b & 0xff));
      ws281x.render();
    },
    async off() {
      channel.brightness = 0;
      ws281x.render();
    },
    async close() {
      ws281x.reset();
      ws281x.finalize();
    },
  };
}
