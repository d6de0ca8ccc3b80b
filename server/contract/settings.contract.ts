import type { CollagePartsMode } from './photos.contract.js';
export interface HardwareSettings {
  relay: { gpio: number; inverted: boolean };
  led: {
    gpio: number;
    count: number;
    idle_mode: 'solid' | 'off';
    idle_color: string;
    /** 0–100 %, used when automatic brightness is off. */
    brightness: number;
    /** Idle brightness follows the measured light instead of `brightness`. */
    auto_brightness: boolean;
    /** The ring flashes white at the capture when the flash fires. */
    capture_flash: boolean;
  };
  flash: {
    /** Light the flash only when the measured light is below the threshold. */
    auto: boolean;
    lux_threshold: number;
    /** 0–100 %, used when automatic brightness is off. */
    manual_brightness: number;
    /** How long before the end of the countdown the light comes on (0 to 3 s). */
    preflash_seconds: number;
    /** How long the flash stays on after the capture. */
    hold_ms: number;
    /** The flash lights video recordings (from the pre-flash to the recording's end); false: videos are taken unlit. */
    video_light: boolean;
    /** The longest the flash may stay on for one video, pre-flash included (5 to 30 s). */
    video_max_seconds: number;
  };
  lux: {
    /** The BH1750's I2C address: 0x23 (35, ADDR pin low or open) or 0x5c (92, ADDR pin high). */
    address: 35 | 92;
  };
}

export interface PrintSettings {
  enable: boolean;
  /** Prints one guest session may order (the event key sets it, up to `limits.quota`). */
  quota: number;
  /** The upper bound of the copies chooser (the event key sets it, up to `limits.max_copies`). */
  max_copies: number;
  /** The owner's bounds of `quota` and `max_copies`: only the owner's key changes them. */
  limits: { quota: number; max_copies: number };
  /** The CUPS printer to use; null for CUPS's default (or its only printer). */
  printer: string | null;
  /** The paper size lp is given (a PageSize the printer declares); null for the printer's own default. */
  paper: string | null;
  /** `fill`: the photo covers the paper, cropped; `fit`: the whole photo, with white margins. */
  layout: 'fill' | 'fit';
  /** How many guest sessions' worth of copies one client address may print per event. */
  sessions_per_address: number;
  /**
   * What CUPS does when the printer reports an error (printer-error-policy of the queue in use):
   * `retry-current-job` tries the job again (a refilled printer goes on by itself), `stop-printer`
   * stops the queue until the operator taps "Reprendre l'impression".
   */
  error_policy: 'retry-current-job' | 'stop-printer';
}

export interface GallerySettings {
  /** The capture app's own gallery delete button (uisettings.gallery_show_delete). */
  show_delete: boolean;
  /** The address guests use, for the QR code; null to compute it from the booth's LAN address. */
  public_url: string | null;
  /** How guests see a collage's single captures. */
  collage_parts: CollagePartsMode;
}

export interface Settings {
  hardware: HardwareSettings;
  print: PrintSettings;
  gallery: GallerySettings;
}
