import { BrowserWindow, session as electronSession, type WebContents } from 'electron';

export interface KioskWindowOptions {
  /** The console page, served by the in-process service. */
  url: string;
  preloadPath: string;
}

const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * Locks a window's contents to the console: no new windows, no navigation to another origin,
 * no webviews, no permission prompts (camera, geolocation…), which a kiosk could not answer.
 */
export function hardenContents(contents: WebContents, allowedUrl: string): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, target) => {
    if (!sameOrigin(target, allowedUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, target) => {
    if (!sameOrigin(target, allowedUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function createKioskWindow(options: KioskWindowOptions): BrowserWindow {
  const ses = electronSession.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);

  const window = new BrowserWindow({
    kiosk: true,
    fullscreen: true,
    autoHideMenuBar: true,
    backgroundColor: '#0f1317',
    show: false,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      devTools: false,
      spellcheck: false,
    },
  });
  hardenContents(window.webContents, options.url);
  window.once('ready-to-show', () => window.show());
  // A crashed renderer must not leave the booth on a blank screen.
  window.webContents.on('render-process-gone', () => {
    if (!window.isDestroyed()) void window.loadURL(options.url);
  });
  void window.loadURL(options.url);
  return window;
}
