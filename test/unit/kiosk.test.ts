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
    setWindowOpenHandler(fn: Handler) {
      this.openHandler = fn;
    }
    reloadIgnoringCache = () => undefined;
  }
  class FakeBrowserWindow extends FakeEmitter {
    static created: FakeBrowserWindow[] = [];
    webContents = new FakeWebContents();
    loaded: string[] = [];
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    show() {}
    focus() {}
    isDestroyed() {
      return false;
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
  });
  const ipcHandlers = new Map<string, Handler>();
  return {
    FakeBrowserWindow,
    permissions,
    app,
    ipcHandlers,
    module: {
      BrowserWindow: FakeBrowserWindow,
      app,
      dialog: { showErrorBox: vi.fn() },
      ipcMain: { handle: (channel: string, fn: Handler) => ipcHandlers.set(channel, fn) },
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

const { createKioskWindow } = await import('../../main/window.js');
const { registerKioskIpc } = await import('../../main/ipc.js');
const { runKiosk } = await import('../../main/main.js');

beforeEach(() => {
  electron.FakeBrowserWindow.created.length = 0;
  electron.ipcHandlers.clear();
  electron.app.handlers.clear();
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

describe('the kiosk verbs', () => {
  const deps = () => ({
    ipcMain: electron.module.ipcMain as never,
    version: '1.2.3',
    allowedOrigin: 'http://127.0.0.1:8080',
    reload: vi.fn(),
    relaunch: vi.fn(),
  });
  const from = (url: string) => ({ senderFrame: { url } });

  it('answers the console', async () => {
    const d = deps();
    registerKioskIpc(d);
    expect(electron.ipcHandlers.get('kiosk:get-info')?.(from('http://127.0.0.1:8080/admin'))).toEqual({ version: '1.2.3', kiosk: true });
    electron.ipcHandlers.get('kiosk:relaunch')?.(from('http://127.0.0.1:8080/admin/dashboard'));
    expect(d.relaunch).toHaveBeenCalledOnce();
  });

  it('refuses any other page', () => {
    const d = deps();
    registerKioskIpc(d);
    expect(() => electron.ipcHandlers.get('kiosk:relaunch')?.(from('https://evil.example/'))).toThrow(/Refused/);
    expect(d.relaunch).not.toHaveBeenCalled();
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
    expect(Object.keys(api).sort()).toEqual(['getInfo', 'relaunch', 'reload']);
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

  it('starts the service in-process and opens the console on it; quitting stops the service', async () => {
    electron.app.userData = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-kiosk-'));
    const handle = await runKiosk({ BOOTHDECK_PORT: '0', BOOTHDECK_HOST: '127.0.0.1', BOOTHDECK_HARDWARE: 'fake' });
    expect(handle).toBeDefined();
    stop = () => handle!.service.stop();
    const window = electron.FakeBrowserWindow.created[0]!;
    expect(window.loaded).toEqual([`${handle!.service.localUrl}/admin`]);
    expect((await fetch(`${handle!.service.localUrl}/healthz`)).status).toBe(200);
    expect(handle!.service.services.auth.isPinSet()).toBe(false);
    expect(existsSync(path.join(electron.app.userData, 'data', 'boothdeck.sqlite'))).toBe(true);

    const quit = { preventDefault: vi.fn() };
    electron.app.emit('before-quit', quit);
    expect(quit.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    await expect(fetch(`${handle!.service.localUrl}/healthz`)).rejects.toThrow();
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
