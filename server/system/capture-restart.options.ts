import type { CaptureConnectionState } from '../capture/capture.port.js';
import type { SystemCommand } from './system.port.js';

export interface ScreenRefresh {
  command: SystemCommand;
  args: string[];
  env: Record<string, string>;
}

export interface CaptureRestartOptions {
  /** Changes arriving within this window share one restart. */
  debounceMs: number;
  /** How long a restart waits for a guest's job to end before it goes ahead anyway. */
  idleWaitMs: number;
  /** How long the capture app may take to come back. */
  readyTimeoutMs: number;
  /** The capture app may answer a moment longer before it goes down: look this long for the gap. */
  downGraceMs: number;
  pollMs: number;
  /** The systemd user unit restarted when the capture app does not answer. */
  unit: string;
  /** Undefined: no screen to refresh (the simulator has none). */
  refresh: ScreenRefresh | undefined;
  /**
   * The host's own refresh, used instead of the command: the kiosk reloads the capture app's
   * view it hosts, which a key press sent to whichever window has focus could miss.
   */
  refreshScreen?: (() => Promise<void> | void) | undefined;
}

export const defaultRestartOptions: CaptureRestartOptions = {
  debounceMs: 1500,
  idleWaitMs: 60_000,
  readyTimeoutMs: 60_000,
  downGraceMs: 10_000,
  pollMs: 500,
  unit: 'photobooth-app',
  refresh: { command: 'wtype', args: ['-k', 'F5'], env: { WAYLAND_DISPLAY: 'wayland-0' } },
};

/** The live stream from the capture app: it breaks when the app goes down, a sure sign of a restart. */
export interface LinkWatch {
  onState(listener: (state: CaptureConnectionState) => void): () => void;
  readonly state?: CaptureConnectionState;
}
