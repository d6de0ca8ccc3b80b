import type { BoardInfo } from '../board.js';
import { DeviceError } from '../device-error.js';
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

/**
 * WS281x ring through rpi-ws281x-native, loaded only here (it throws off a Pi). The library drives
 * the BCM283x/2711 PWM and DMA directly; the Pi 5's RP1 chip has neither, so it is refused before
 * loading rather than left to crash or silently do nothing.
 */
export async function createWs281xRing(options: LedOptions, board: BoardInfo): Promise<LedRingPort> {
  if (board.isPi5) throw new DeviceError('unsupported-board', 'rpi-ws281x-native cannot drive LEDs on a Raspberry Pi 5');
  const ws281x = await loadOptionalModule('rpi-ws281x-native', isWs281x);
  const channel = ws281x(options.count, { gpio: options.gpio, stripType: 'ws2812' });
  let closed = false;
  return {
    driver: 'ws281x',
    count: options.count,
    async show(pixels, brightness) {
      if (closed) return;
      channel.brightness = Math.round(Math.min(1, Math.max(0, brightness)) * 255);
      for (let i = 0; i < options.count; i++) {
        const p = pixels[i];
        channel.array[i] = p ? ((p.r & 0xff) << 16) | ((p.g & 0xff) << 8) | (p.b & 0xff) : 0;
      }
      ws281x.render();
    },
    async off() {
      if (closed) return;
      channel.array.fill(0);
      channel.brightness = 0;
      ws281x.render();
    },
    async close() {
      if (closed) return;
      closed = true;
      ws281x.reset();
      ws281x.finalize();
    },
  };
}
