export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface LedRingPort {
  readonly driver: string;
  readonly count: number;
  /** One colour per LED (missing ones dark); brightness 0..1 for the whole ring. */
  show(pixels: readonly Rgb[], brightness: number): Promise<void>;
  off(): Promise<void>;
  close(): Promise<void>;
}

export interface LedOptions {
  count: number;
  gpio: number;
}

export const BLACK: Rgb = { r: 0, g: 0, b: 0 };
