import type { LedDriverChoice, RelayGpioStatus } from './hardware.contract.js';
import type { PrintQueueSummary } from './print.contract.js';
import type { CaptureStreamState } from './status.contract.js';

export interface DiskStatus {
  /** "data" (Boothdeck's folder) or "capture" (the capture app's folder). */
  id: 'data' | 'capture';
  path: string;
  /** Null when the folder cannot be read. */
  free_bytes: number | null;
  total_bytes: number | null;
  /** Under 1 GB free. */
  low: boolean;
  /** Free space divided by the space one photo takes (all its copies), when both are known. */
  photos_left: number | null;
}

export interface ThrottleStatus {
  /** The raw bit field of `vcgencmd get_throttled`, e.g. "0x50005". */
  raw: string;
  under_voltage_now: boolean;
  throttled_now: boolean;
  frequency_capped_now: boolean;
  soft_temp_limit_now: boolean;
  under_voltage_since_boot: boolean;
  throttled_since_boot: boolean;
}

export interface DashboardStatus {
  version: string;
  /** The build's commit or label, when the build recorded one. */
  build: string | null;
  started_at: string;
  process_uptime_seconds: number;
  system_uptime_seconds: number;
  capture: {
    url: string;
    reachable: boolean;
    stream: CaptureStreamState;
    /** As the capture app announces it on its stream at each connection; null until it has. */
    version: string | null;
    /** The last time Boothdeck saw it come back (its stream reconnecting) or restarted it. */
    last_restart_at: string | null;
  };
  event: { slug: string; name: string; photo_count: number; created_at: string } | null;
  /** Photos per hour of the current event, oldest hour first; hours without photos are 0. */
  photos_per_hour: { hour: string; count: number }[];
  print?: PrintQueueSummary;
  disks: DiskStatus[];
  cpu: { temperature_c: number | null; throttle: ThrottleStatus | null };
  /** Guests' phones with the gallery open now (its live streams), for the home screen. */
  guests_online: number;
  /** With real hardware: which driver lights the LED ring and why the other was not used; absent with fake hardware. */
  led_driver?: LedDriverChoice | null;
  /** With real hardware: the GPIO interface that drives the flash relay (sysfs or the character device); absent with fake hardware. */
  gpio_driver?: RelayGpioStatus;
}

export type MaintenanceAction = 'restart-capture' | 'restart-boothdeck' | 'reboot';

export interface MaintenanceResult {
  action: MaintenanceAction;
  ok: boolean;
  /** What happens next, or what went wrong (the command's own words). */
  message: string;
}

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogEntry {
  time: string;
  level: LogLevel;
  message: string;
  error: string | null;
}

export interface LogsResponse {
  lines: LogEntry[];
}
