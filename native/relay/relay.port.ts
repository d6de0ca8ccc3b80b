/** The flash light's relay. `on` means light on, whatever the wiring's logic level. */
export interface RelayPort {
  readonly driver: string;
  set(on: boolean): Promise<void>;
  isOn(): boolean;
  close(): Promise<void>;
}

export interface RelayOptions {
  gpio: number;
  /** Many relay boards switch on a low level: then `on` drives the pin to 0. */
  inverted: boolean;
}
