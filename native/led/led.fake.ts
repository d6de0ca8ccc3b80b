import { BLACK, type LedOptions, type LedRingPort, type Rgb } from './led.port.js';

export interface LedFrame {
  at: number;
  pixels: Rgb[];
  brightness: number;
}

/** Keeps the frames it was asked to show, with their time, for tests and the diagnostic page. */
export class FakeLedRing implements LedRingPort {
  readonly driver = 'fake';
  readonly frames: LedFrame[] = [];
  closed = false;

  constructor(
    readonly options: LedOptions = { count: 16, gpio: 10 },
    private readonly now: () => number = Date.now,
  ) {}

  get count(): number {
    return this.options.count;
  }

  get current(): LedFrame {
    return this.frames.at(-1) ?? { at: this.now(), pixels: Array.from({ length: this.count }, () => BLACK), brightness: 0 };
  }

  async show(pixels: readonly Rgb[], brightness: number): Promise<void> {
    if (this.frames.length > 2000) this.frames.splice(0, 1000);
    const full = Array.from({ length: this.count }, (_, i) => ({ ...(pixels[i] ?? BLACK) }));
    this.frames.push({ at: this.now(), pixels: full, brightness });
  }

  async off(): Promise<void> {
    await this.show([], 0);
  }

  async close(): Promise<void> {
    await this.off();
    this.closed = true;
  }
}
