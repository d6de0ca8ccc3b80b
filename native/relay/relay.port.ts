/** The flash light's relay. `on` means light on, whatever the wiring's logic level. */
export interface RelayPort {
  readonly driver: string;
  set(on: boolean): Promise<void>;
  isOn(): boolean;
  /** Light off at once, synchronously: for exit and crash handlers, which cannot wait. */
  forceOffSync(): void;
  close(): Promise<void>;
}

export interface RelayOptions {
  /** BCM number, as printed on pinout diagrams; the chip's sysfs base is added by the driver. */
  gpio: number;
  /** Active-low boards (most relay modules) switch on a low level: then `on` drives the pin to 0. */
  inverted: boolean;
}

/** The pin level that means "light on" or "light off" for this wiring. */
export const relayLevel = (on: boolean, inverted: boolean): 0 | 1 => (on !== inverted ? 1 : 0);
