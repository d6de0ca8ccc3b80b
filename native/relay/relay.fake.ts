import type { RelayPort } from './relay.port.js';

export class FakeRelay implements RelayPort {
  readonly driver = 'fake';
  readonly history: boolean[] = [];
  private on = false;

  async set(on: boolean): Promise<void> {
    this.on = on;
    this.history.push(on);
  }

  isOn(): boolean {
    return this.on;
  }

  async close(): Promise<void> {
    this.on = false;
  }
}
