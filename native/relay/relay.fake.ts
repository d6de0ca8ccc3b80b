import { relayLevel, type RelayOptions, type RelayPort } from './relay.port.js';

export interface RelayChange {
  at: number;
  on: boolean;
  /** The pin level a real board would see. */
  level: 0 | 1;
}

/** Records every switch with its time and the level the wiring would get. */
export class FakeRelay implements RelayPort {
  readonly driver = 'fake';
  readonly history: RelayChange[] = [];
  private on = false;
  closed = false;

  constructor(
    readonly options: RelayOptions = { gpio: 17, inverted: false },
    private readonly now: () => number = Date.now,
  ) {
    // The real driver sets the off level in the call that makes the pin an output.
    this.history.push({ at: now(), on: false, level: relayLevel(false, options.inverted) });
  }

  async set(on: boolean): Promise<void> {
    this.record(on);
  }

  isOn(): boolean {
    return this.on;
  }

  forceOffSync(): void {
    if (this.on) this.record(false);
  }

  async close(): Promise<void> {
    this.forceOffSync();
    this.closed = true;
  }

  /** When the light came on, for each time it did. */
  onTimes(): number[] {
    return this.history.filter((c, i) => c.on && !this.history[i - 1]?.on).map((c) => c.at);
  }

  private record(on: boolean): void {
    if (this.history.length > 2000) this.history.splice(0, 1000);
    this.on = on;
    this.history.push({ at: this.now(), on, level: relayLevel(on, this.options.inverted) });
  }
}
