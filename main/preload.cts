// A sandboxed preload runs as CommonJS and may only require 'electron': no other imports here.
import electron = require('electron');
import type { BoothdeckKioskApi, KioskChannel } from './preload.types.js';

const invoke = <T,>(channel: KioskChannel): Promise<T> => electron.ipcRenderer.invoke(channel) as Promise<T>;

const api: BoothdeckKioskApi = {
  getInfo: () => invoke('kiosk:get-info'),
  reload: () => invoke('kiosk:reload'),
  relaunch: () => invoke('kiosk:relaunch'),
  showBoothScreen: () => invoke('kiosk:show-booth-screen'),
};

electron.contextBridge.exposeInMainWorld('boothdeck', Object.freeze(api));
