import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, ipcMain, type BrowserWindow } from 'electron';
import { appVersion } from '../server/core/app-info.js';
import { ConfigError, loadConfig } from '../server/config.js';
import { startService, type ServiceHandle } from '../server/service.js';
import { registerKioskIpc } from './ipc.js';
import { createKioskWindow } from './window.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface KioskHandle {
  service: ServiceHandle;
  window: BrowserWindow;
}

/**
 * Kiosk host: the same service as `npm start`, started in this process, and a locked
 * full-screen window on its admin console.
 */
export async function runKiosk(env: NodeJS.ProcessEnv = process.env): Promise<KioskHandle | undefined> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  await app.whenReady();
  let service: ServiceHandle;
  try {
    const config = loadConfig(env, { dataDir: path.join(app.getPath('userData'), 'data') });
    service = await startService(config);
  } catch (err) {
    const message =
      err instanceof ConfigError ? err.message : `Boothdeck could not start: ${err instanceof Error ? err.message : String(err)}`;
    dialog.showErrorBox('Boothdeck', message);
    app.exit(2);
    return undefined;
  }

  const consoleUrl = `${service.localUrl}/admin`;
  const window = createKioskWindow({ url: consoleUrl, preloadPath: path.join(here, 'preload.cjs') });
  registerKioskIpc({
    ipcMain,
    version: appVersion(),
    allowedOrigin: new URL(service.localUrl).origin,
    reload: () => window.webContents.reloadIgnoringCache(),
    relaunch: () => {
      app.relaunch();
      app.quit();
    },
  });

  let stopping = false;
  app.on('before-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    void service.stop().finally(() => app.quit());
  });
  app.on('second-instance', () => window.focus());
  app.on('window-all-closed', () => app.quit());
  return { service, window };
}

if (process.versions.electron && !process.env.VITEST) {
  void runKiosk();
}
