export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface LedRingPort {
  readonly driver: string;
  /** Every LED the same colour; brightness 0..1. */
  fill(color: Rgb, brightness: number): Promise<void>;
  off(): Promise<void>;
  close(): Promise<void>;
}

export interface LedOptions {
  count: number;
  gpio: number;
}
