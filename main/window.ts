import { BrowserWindow, WebContentsView, session as electronSession, type WebContents } from 'electron';
import { BoothScreen } from './booth-screen.js';

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

/** Every web view of the kiosk: isolated, sandboxed, no Node, no devtools, no mixed content. */
const lockedPreferences = {
  contextIsolation: true,
  nodeIntegration: false,
  sandbox: true,
  webSecurity: true,
  allowRunningInsecureContent: false,
  devTools: false,
  spellcheck: false,
} as const;

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
    webPreferences: { preload: options.preloadPath, ...lockedPreferences },
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

/** How long a finger must stay in the corner to open the console; a guest's tap does nothing. */
export const LONG_PRESS_MS = 1500;
/** The corner area (top right) that listens for the long press, in CSS pixels. */
export const HOTSPOT_SIZE = 96;
/** How soon the capture app's screen is tried again when it does not load (app still starting). */
export const CAPTURE_RETRY_MS = 3000;

/**
 * The corner's page: a transparent square that renames itself after a long press. No preload,
 * no IPC: the main process only watches its title, so the page can ask for nothing else.
 */
export const HOTSPOT_PAGE = `data:text/html;charset=utf-8,${encodeURIComponent(`<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<title>idle</title><style>html,body{margin:0;height:100%;background:transparent;touch-action:none;user-select:none}</style></head>
<body><script>
let timer = 0, count = 0;
const cancel = () => { clearTimeout(timer); timer = 0; };
addEventListener('pointerdown', () => { cancel(); timer = setTimeout(() => { count += 1; document.title = 'open-' + count; }, ${LONG_PRESS_MS}); });
['pointerup', 'pointercancel', 'pointerleave'].forEach((name) => addEventListener(name, cancel));
addEventListener('contextmenu', (event) => event.preventDefault());
</script></body></html>`)}`;

/**
 * Lays the capture app's own screen over the console in the same window, with the long-press
 * corner on top; see BoothScreen for who shows when. The capture app's page is held to its
 * origin like the console is to its own.
 */
export function attachBoothScreen(window: BrowserWindow, options: { captureUrl: string; log?: (m: string) => void }): BoothScreen {
  const capture = new WebContentsView({ webPreferences: { ...lockedPreferences } });
  const hotspot = new WebContentsView({ webPreferences: { ...lockedPreferences } });
  hardenContents(capture.webContents, options.captureUrl);
  hotspot.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  hotspot.webContents.on('will-navigate', (event) => event.preventDefault());
  hotspot.webContents.on('will-attach-webview', (event) => event.preventDefault());
  hotspot.setBackgroundColor('#00000000');
  window.contentView.addChildView(capture);
  window.contentView.addChildView(hotspot);

  const layout = (): void => {
    const { width, height } = window.getContentBounds();
    capture.setBounds({ x: 0, y: 0, width, height });
    hotspot.setBounds({ x: Math.max(0, width - HOTSPOT_SIZE), y: 0, width: HOTSPOT_SIZE, height: HOTSPOT_SIZE });
  };
  layout();
  window.on('resize', layout);

  const captureUrl = `${options.captureUrl.replace(/\/+$/, '')}/`;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // At boot the capture app often starts after Boothdeck: keep trying until its page loads.
  capture.webContents.on('did-fail-load', (_event, code, _description, _url, isMainFrame) => {
    if (!isMainFrame || code === -3 /* aborted by a newer load */ || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void capture.webContents.loadURL(captureUrl);
    }, CAPTURE_RETRY_MS);
  });
  capture.webContents.on('render-process-gone', () => void capture.webContents.loadURL(captureUrl));

  const screen = new BoothScreen({
    capture: {
      setVisible: (visible) => capture.setVisible(visible),
      reload: () => capture.webContents.reloadIgnoringCache(),
    },
    hotspot: { setVisible: (visible) => hotspot.setVisible(visible) },
    console: { focus: () => window.webContents.focus() },
    ...(options.log ? { log: options.log } : {}),
  });
  hotspot.webContents.on('page-title-updated', (_event, title) => {
    if (title.startsWith('open-')) screen.showConsole();
  });
  void capture.webContents.loadURL(captureUrl);
  void hotspot.webContents.loadURL(HOTSPOT_PAGE);
  return screen;
}
