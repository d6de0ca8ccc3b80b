/** The flash light's relay. `on` means light on, whatever the wiring's logic level. */
export interface RelayPort {
  readonly driver: string;
  /**
   * How to drive this relay's pin to its off level without Boothdeck (the unit's ExecStopPost
   * script reads it); absent for stand-ins.
   */
  readonly offSwitch?: RelayOffSwitch;
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

/**
 * The pin a relay drives and its off level, in the terms of the interface that drives it:
 * the sysfs value file, or the character device and its line (offsets on the chip, no base).
 */
export type RelayOffSwitch =
  { interface: 'sysfs'; value: string; off: 0 | 1 } | { interface: 'cdev'; chip: string; line: number; off: 0 | 1 };
