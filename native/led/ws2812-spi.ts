import type { Rgb } from './led.port.js';

/**
 * The WS2812 bit pattern as SPI bytes, at 6.4 MHz with one SPI byte per WS2812 bit.
 *
 * A WS2812 bit lasts 1.25 µs and is told by how long its line stays high: 8 SPI bits of
 * 156 ns make one. A 0 is 0b11000000 (312 ns high, 938 ns low), a 1 is 0b11111000 (781 ns high,
 * 469 ns low): inside the datasheets of the WS2812 and of both WS2812B revisions (T0H 220–380 ns
 * and 250–550 ns, T1H 580–1000 ns and 650–950 ns). One byte per bit, rather than the denser 3 SPI
 * bits at 2.4 MHz, because the byte boundaries then fall on the LED's bit boundaries: a pause the
 * SPI controller makes between bytes (the Pi 5's RP1 does, the Pi 4's does between DMA bursts)
 * only lengthens a low phase, which the LED tolerates, and never stretches a high one, which it
 * would read as a 1. The Pi 4's and Pi 5's SPI clocks divide down to 6.25 MHz (an even divider of
 * 500 and 200 MHz): 1.28 µs bits, still inside the timings.
 */
export const SPI_SPEED_HZ = 6_400_000;
export const SPI_ZERO = 0b1100_0000;
export const SPI_ONE = 0b1111_1000;
/** SPI bytes per LED: 24 bits, green, red, blue, most significant bit first. */
export const BYTES_PER_LED = 24;
/**
 * Low before and after the data: 300 µs (240 bytes at 6.4 MHz), over the 280 µs latch of the
 * WS2812B-V5 (older LEDs need 50 µs). The trailing gap latches the frame and leaves MOSI low;
 * the leading one separates it from whatever the line carried before.
 */
export const RESET_BYTES = 240;

const clamp = (v: number, max: number): number => Math.min(max, Math.max(0, v));

/** The byte each LED receives for a channel: the colour scaled by the ring's brightness (0..1). */
export const scaled = (value: number, brightness: number): number => Math.round(clamp(value, 255) * clamp(brightness, 1));

/** The SPI bytes for a whole ring of `count` LEDs (missing pixels dark), reset gaps included. */
export function encodeWs2812Spi(pixels: readonly Rgb[], count: number, brightness: number): Buffer {
  const out = Buffer.alloc(RESET_BYTES * 2 + count * BYTES_PER_LED);
  let at = RESET_BYTES;
  for (let i = 0; i < count; i++) {
    const p = pixels[i];
    // WS2812 LEDs take green first, then red, then blue.
    for (const channel of p ? [p.g, p.r, p.b] : [0, 0, 0]) {
      const byte = scaled(channel, brightness);
      for (let bit = 7; bit >= 0; bit--) out[at++] = (byte >> bit) & 1 ? SPI_ONE : SPI_ZERO;
    }
  }
  return out;
}
