/** Why the flash will or will not fire at the next capture. */
export type FlashReason =
  /** Automatic flash off: it always fires, at the manual brightness. */
  | 'manual'
  /** The light is below the threshold. */
  | 'dark'
  /** Between the threshold and threshold + band, coming from dark: it keeps firing (hysteresis). */
  | 'dark-hold'
  /** The light is above the threshold plus its band. */
  | 'bright'
  /** Between the threshold and threshold + band, coming from bright: it keeps not firing. */
  | 'bright-hold'
  /** No reading from the sensor: it fires, a dark photo being worse than a bright one. */
  | 'no-reading';

export interface FlashDecision {
  fire: boolean;
  reason: FlashReason;
  /** 0–100 %, the strength of the ring's white flash at the capture. */
  brightness: number;
}

export type DeviceProblem =
  | 'driver-missing'
  | 'no-gpio'
  | 'no-permission'
  | 'no-i2c-bus'
  | 'no-sensor'
  | 'i2c-error'
  | 'unsupported-board'
  | 'driver-error'
  | 'no-spi'
  | 'needs-root';

/** The LED ring's drivers: WS2812 over SPI (GPIO 10, no root) and rpi-ws281x (PWM/DMA, root, Pi 4 and older). */
export type LedDriverName = 'spi' | 'ws281x';
/**
 * Why a LED driver was not used: `spi-pin` GPIO 10 is SPI's and SPI drives it without root;
 * `spi-pin-only` SPI drives only GPIO 10; `needs-root` rpi-ws281x needs root; `pi5` rpi-ws281x
 * cannot drive a Pi 5; `no-spidev` /dev/spidev0.0 is missing (SPI off).
 */
export type LedPassReason = 'spi-pin' | 'spi-pin-only' | 'needs-root' | 'pi5' | 'no-spidev';

export interface LedDriverChoice {
  /** The driver chosen for the ring, null when none can drive it here. */
  driver: LedDriverName | null;
  gpio: number;
  passed: { driver: LedDriverName; reason: LedPassReason }[];
  /**
   * GPIO 10 on a Pi 4 only: its SPI clock is divided from the core clock, which follows the GPU's
   * load unless config.txt fixes it (core_freq=500 and core_freq_min=500); unfixed, the ring
   * shows white or wrong colours.
   */
  core_clock?: { fixed: boolean; config: string | null; mhz: number | null };
}

/**
 * The interface that drives the flash relay's pin: the legacy sysfs export, or the GPIO character
 * device (kernels without the export); null, with the problem, when neither could open it.
 */
export interface RelayGpioStatus {
  driver: 'sysfs' | 'gpio-cdev' | null;
  problem: DeviceProblem | null;
}

export interface DeviceStatus {
  device: 'relay' | 'lux' | 'led';
  driver: string;
  state: 'ok' | 'simulated' | 'failed';
  problem: DeviceProblem | null;
  /** The LED ring only, with real hardware: which driver was chosen and why the other was not. */
  choice?: LedDriverChoice | null;
}

export type LedScene = 'off' | 'idle' | 'countdown' | 'flash' | 'unreachable' | 'test';

export interface LuxPoint {
  /** Epoch milliseconds. */
  t: number;
  /** The raw reading, null when the sensor failed. */
  lux: number | null;
  smoothed: number | null;
}

export interface HardwareDiagnostic {
  now: number;
  mode: 'auto' | 'fake';
  lux: {
    current: number | null;
    smoothed: number | null;
    threshold: number;
    /** The sensor's I2C address (35 = 0x23, 92 = 0x5c). */
    address: number;
    /** The flash stops firing only above threshold + band. */
    band: number;
    /** The newest samples, oldest first (only those after `since` when asked). */
    samples: LuxPoint[];
  };
  decision: FlashDecision;
  led: {
    /** 0–100 %, what the ring is driven at in idle. */
    brightness: number;
    source: 'manual' | 'auto';
    scene: LedScene;
    /** The colour of each LED now, as #rrggbb. */
    pixels: string[];
  };
  relay: { on: boolean; limits: RelayLimits };
  capture: { reachable: boolean; countdown: { duration_ms: number; remaining_ms: number } | null };
  devices: DeviceStatus[];
}

/** The bounds the relay keeps whatever asks for light, shown on the hardware page. */
export interface RelayLimits {
  /**
   * The longest one still may keep the light on, from its pre-flash to its hold (quick off-on
   * pairs count as one); each still of a multi-shot job has its own.
   */
  max_on_ms: number;
  /** The longest one video may keep the light on; null when the flash does not light videos. */
  video_max_ms: number | null;
  duty_window_ms: number;
  /** The most on-time any window of `duty_window_ms` may hold. */
  duty_max_on_ms: number;
  /** On-time left in the window ending now. */
  budget_ms: number;
}
