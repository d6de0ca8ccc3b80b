/** What the kiosk's preload exposes to the console as `window.boothdeck`: named verbs only. */
export interface KioskInfo {
  version: string;
  kiosk: true;
}

export interface BoothdeckKioskApi {
  getInfo(): Promise<KioskInfo>;
  /** Reloads the console window (after an update of the front end, for example). */
  reload(): Promise<void>;
  /** Restarts Boothdeck itself: the service and the window. */
  relaunch(): Promise<void>;
}

/** The IPC channels behind those verbs; the preload and the main process must agree on them. */
export const KIOSK_CHANNELS = {
  getInfo: 'kiosk:get-info',
  reload: 'kiosk:reload',
  relaunch: 'kiosk:relaunch',
} as const satisfies Record<keyof BoothdeckKioskApi, string>;

export type KioskChannel = (typeof KIOSK_CHANNELS)[keyof typeof KIOSK_CHANNELS];
