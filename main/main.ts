import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, ipcMain, powerSaveBlocker, type BrowserWindow } from 'electron';
import { appVersion } from '../server/core/app-info.js';
import { ConfigError, loadConfig } from '../server/config.js';
import { V8_MEMORY_FLAGS } from '../server/core/host-memory.js';
import { startService, type ServiceHandle } from '../server/service.js';
import type { BoothScreen } from './booth-screen.js';
import { registerKioskIpc } from './ipc.js';
import { attachBoothScreen, createKioskWindow } from './window.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface KioskHandle {
  service: ServiceHandle;
  /**
   * The current kiosk window; a closed window is opened again on the next launch attempt.
   * Undefined in a trial start, which opens none.
   */
  window(): BrowserWindow | undefined;
  /** Undefined with the simulator, which has no screen of its own to show guests. */
  screen(): BoothScreen | undefined;
}

/**
 * The deploy's trial start (deploy/src/booth/trial.ts): the new release runs its service on a spare
 * port beside the live one, with `--ozone-platform=headless` and no window, so it neither shows
 * on the booth's screen nor holds it awake; only /healthz is asked of it.
 */
export const TRIAL_SWITCH = '--boothdeck-trial';

export interface KioskOptions {
  trial?: boolean;
}

/**
 * Kiosk host: the same service as `npm start`, started in this process, and a locked
 * full-screen window showing the capture app's screen to guests and the admin console to the
 * operator (see BoothScreen). The service lives as long as the process, not the window.
 */
export async function runKiosk(env: NodeJS.ProcessEnv = process.env, options: KioskOptions = {}): Promise<KioskHandle | undefined> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  // The console's date fields follow Chromium's own locale, not the page's: French first, as the console.
  app.commandLine.appendSwitch('lang', 'fr-FR');
  // The kiosk window's and the capture screen's renderers get the booth's young generation. This
  // process's own V8 (the service's) was set up before this line runs: Electron reads --js-flags for
  // it from the command line at launch only (the unit's ExecStart; docs/bench.md).
  app.commandLine.appendSwitch('js-flags', V8_MEMORY_FLAGS.join(' '));
  await app.whenReady();
  let service: ServiceHandle;
  let screen: BoothScreen | undefined;
  let hostsCaptureScreen = false;
  try {
    const config = loadConfig(env, { dataDir: path.join(app.getPath('userData'), 'data'), kiosk: true });
    hostsCaptureScreen = config.captureUrl !== undefined;
    service = await startService(config, {
      // The kiosk shows the capture app's page itself: refreshing it is reloading that view.
      ...(hostsCaptureScreen ? { restart: { refreshScreen: () => screen?.refreshCapture() } } : {}),
      relaunch: () => {
        app.relaunch();
        app.exit(0);
      },
    });
  } catch (err) {
    const message =
      err instanceof ConfigError ? err.message : `Boothdeck could not start: ${err instanceof Error ? err.message : String(err)}`;
    dialog.showErrorBox('Boothdeck', message);
    app.exit(2);
    return undefined;
  }

  let stopping = false;
  let stopScreenAwake = (): void => {};
  app.on('before-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    stopScreenAwake();
    void service.stop().finally(() => app.quit());
  });
  // systemd stops the unit with SIGTERM: stop the service cleanly (database, hardware) first.
  if (process.versions.electron) process.once('SIGTERM', () => app.quit());
  if (options.trial) {
    service.services.ports.log.info(`Trial start: serving ${service.localUrl}/healthz, no window`);
    return { service, window: () => undefined, screen: () => undefined };
  }

  // A screen that blanks in the middle of an evening looks like a dead booth. Under labwc the
  // blocker becomes a Wayland idle inhibitor, which swayidle honours while the window shows.
  const blocker = powerSaveBlocker.start('prevent-display-sleep');
  stopScreenAwake = () => {
    if (powerSaveBlocker.isStarted(blocker)) powerSaveBlocker.stop(blocker);
  };

  const consoleUrl = `${service.localUrl}/admin`;
  const open = (): BrowserWindow => {
    const created = createKioskWindow({ url: consoleUrl, preloadPath: path.join(here, 'preload.cjs') });
    const hosted = hostsCaptureScreen
      ? attachBoothScreen(created, { captureUrl: service.captureUrl, log: (m) => service.services.ports.log.info(m) })
      : undefined;
    screen = hosted;
    // A closed window's views are gone: a refresh then has nothing to reload until it reopens.
    created.once('closed', () => {
      if (screen === hosted) screen = undefined;
    });
    return created;
  };
  let window = open();
  registerKioskIpc({
    ipcMain,
    version: appVersion(),
    allowedOrigin: new URL(service.localUrl).origin,
    boothScreen: hostsCaptureScreen,
    reload: () => window.webContents.reloadIgnoringCache(),
    relaunch: () => {
      app.relaunch();
      app.quit();
    },
    showBoothScreen: () => screen?.showBooth(),
  });

  app.on('second-instance', () => {
    if (window.isDestroyed()) window = open();
    else window.focus();
  });
  // Guests' phones still use the gallery: a closed window is no reason to stop serving.
  app.on('window-all-closed', () => service.services.ports.log.warn('The kiosk window was closed; the service keeps running'));
  return { service, window: () => window, screen: () => screen };
}

if (process.versions.electron && !process.env.VITEST) {
  void runKiosk(process.env, { trial: process.argv.includes(TRIAL_SWITCH) });
}
