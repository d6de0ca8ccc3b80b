import { vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;

/** A stand-in for Electron that records what the main process asks of it. */
export const electron = (() => {
  class FakeEmitter {
    handlers = new Map<string, Handler[]>();
    on(name: string, fn: Handler) {
      this.handlers.set(name, [...(this.handlers.get(name) ?? []), fn]);
      return this;
    }
    once(name: string, fn: Handler) {
      return this.on(name, fn);
    }
    emit(name: string, ...args: unknown[]) {
      (this.handlers.get(name) ?? []).forEach((fn) => fn(...args));
    }
  }
  class FakeWebContents extends FakeEmitter {
    openHandler: Handler | undefined;
    loaded: string[] = [];
    reloads = 0;
    focused = 0;
    setWindowOpenHandler(fn: Handler) {
      this.openHandler = fn;
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    reloadIgnoringCache() {
      this.reloads++;
    }
    focus() {
      this.focused++;
    }
  }
  class FakeWebContentsView extends FakeEmitter {
    static created: FakeWebContentsView[] = [];
    webContents = new FakeWebContents();
    visible = true;
    bounds: unknown;
    background = '';
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeWebContentsView.created.push(this);
    }
    setVisible(visible: boolean) {
      this.visible = visible;
    }
    setBounds(bounds: unknown) {
      this.bounds = bounds;
    }
    setBackgroundColor(color: string) {
      this.background = color;
    }
  }
  class FakeBrowserWindow extends FakeEmitter {
    static created: FakeBrowserWindow[] = [];
    webContents = new FakeWebContents();
    loaded: string[] = [];
    children: FakeWebContentsView[] = [];
    contentView = { addChildView: (view: FakeWebContentsView) => this.children.push(view) };
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    getContentBounds() {
      return { x: 0, y: 0, width: 1280, height: 800 };
    }
    show() {}
    focus() {}
    isDestroyed() {
      return this.destroyed;
    }
  }
  const permissions: { request?: Handler; check?: Handler } = {};
  const app = Object.assign(new FakeEmitter(), {
    userData: '',
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: () => app.userData,
    quit: vi.fn(),
    exit: vi.fn(),
    relaunch: vi.fn(),
    switches: [] as string[][],
    commandLine: { appendSwitch: (name: string, value = '') => app.switches.push([name, value]) },
  });
  const ipcHandlers = new Map<string, Handler>();
  /** Chromium's blockers: ids handed out, and which are still holding. */
  const powerSaveBlocker = {
    held: new Map<number, string>(),
    next: 1,
    start: vi.fn((type: string) => {
      const id = powerSaveBlocker.next++;
      powerSaveBlocker.held.set(id, type);
      return id;
    }),
    stop: vi.fn((id: number) => powerSaveBlocker.held.delete(id)),
    isStarted: (id: number) => powerSaveBlocker.held.has(id),
  };
  return {
    FakeBrowserWindow,
    FakeWebContentsView,
    permissions,
    app,
    ipcHandlers,
    powerSaveBlocker,
    module: {
      BrowserWindow: FakeBrowserWindow,
      WebContentsView: FakeWebContentsView,
      app,
      dialog: { showErrorBox: vi.fn() },
      ipcMain: { handle: (channel: string, fn: Handler) => ipcHandlers.set(channel, fn) },
      powerSaveBlocker,
      session: {
        defaultSession: {
          setPermissionRequestHandler: (fn: Handler) => (permissions.request = fn),
          setPermissionCheckHandler: (fn: Handler) => (permissions.check = fn),
        },
      },
    },
  };
})();

/** Back to a fresh Electron between tests: no windows, views, IPC handlers, app listeners or blockers. */
export function resetElectron(): void {
  electron.FakeBrowserWindow.created.length = 0;
  electron.FakeWebContentsView.created.length = 0;
  electron.ipcHandlers.clear();
  electron.app.handlers.clear();
  electron.powerSaveBlocker.held.clear();
  vi.clearAllMocks();
}
