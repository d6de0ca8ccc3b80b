import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { KIOSK_CHANNELS, type KioskInfo } from './preload.types.js';

export interface KioskIpcDeps {
  ipcMain: IpcMain;
  version: string;
  /** Only pages of this origin (the console) may call the verbs. */
  allowedOrigin: string;
  /** Whether a capture-app screen is hosted (see BoothScreen). */
  boothScreen: boolean;
  reload(): void;
  relaunch(): void;
  showBoothScreen(): void;
}

export function registerKioskIpc(deps: KioskIpcDeps): void {
  const fromConsole = (event: IpcMainInvokeEvent): boolean => {
    try {
      return new URL(event.senderFrame?.url ?? '').origin === deps.allowedOrigin;
    } catch {
      return false;
    }
  };
  const guarded =
    <T>(handler: () => T) =>
    (event: IpcMainInvokeEvent): T => {
      if (!fromConsole(event)) throw new Error('Refused: the caller is not the Boothdeck console');
      return handler();
    };

  deps.ipcMain.handle(
    KIOSK_CHANNELS.getInfo,
    guarded((): KioskInfo => ({ version: deps.version, kiosk: true, boothScreen: deps.boothScreen })),
  );
  deps.ipcMain.handle(
    KIOSK_CHANNELS.reload,
    guarded(() => deps.reload()),
  );
  deps.ipcMain.handle(
    KIOSK_CHANNELS.relaunch,
    guarded(() => deps.relaunch()),
  );
  deps.ipcMain.handle(
    KIOSK_CHANNELS.showBoothScreen,
    guarded(() => deps.showBoothScreen()),
  );
}
