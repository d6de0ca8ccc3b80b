import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import ts from 'typescript';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electron, resetElectron } from '../support/electron.fake.js';

// Electron's binary is not here: the main process runs against a recording stand-in.
vi.mock('electron', async () => (await import('../support/electron.fake.js')).electron.module);

const { attachBoothScreen, createKioskWindow, HOTSPOT_SIZE } = await import('../../main/window.js');
const { registerKioskIpc } = await import('../../main/ipc.js');

beforeEach(() => resetElectron());

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
