import type { Rgb } from '../../native/led/led.port.js';

export const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };
/** Violet, a colour the idle presets do not offer, so "capture app unreachable" reads from across the room. */
export const UNREACHABLE_COLOR: Rgb = { r: 150, g: 0, b: 255 };
export const UNREACHABLE_PERIOD_MS = 4000;

export function parseHex(hex: string): Rgb {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return Number.isNaN(n) ? BLACK : { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff };
}

export const toHex = (c: Rgb): string => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

const scale = (c: Rgb, f: number): Rgb => ({ r: Math.round(c.r * f), g: Math.round(c.g * f), b: Math.round(c.b * f) });

export const solid = (color: Rgb, count: number): Rgb[] => Array.from({ length: count }, () => ({ ...color }));

/**
 * A ring that empties as the countdown runs: `remaining` 1 lights every LED, 0 none. The LED at
 * the edge fades, so the ring moves smoothly even with few LEDs.
 */
export function countdownRing(color: Rgb, count: number, remaining: number): Rgb[] {
  const lit = Math.min(1, Math.max(0, remaining)) * count;
  return Array.from({ length: count }, (_, i) => scale(color, Math.min(1, Math.max(0, lit - i))));
}

/** A slow breath between 15 % and 100 %, every UNREACHABLE_PERIOD_MS. */
export function unreachablePulse(count: number, now: number): Rgb[] {
  const phase = (now % UNREACHABLE_PERIOD_MS) / UNREACHABLE_PERIOD_MS;
  const level = 0.15 + 0.85 * (0.5 - 0.5 * Math.cos(2 * Math.PI * phase));
  return solid(scale(UNREACHABLE_COLOR, level), count);
}
