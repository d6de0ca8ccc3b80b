/** What the kiosk's preload exposes to the console as `window.boothdeck`: named verbs only. */
export interface KioskInfo {
  version: string;
  kiosk: true;
  /** The kiosk shows the capture app's screen to guests (not with the simulator, which has none). */
  boothScreen: boolean;
}

export interface BoothdeckKioskApi {
  getInfo(): Promise<KioskInfo>;
  /** Reloads the console window (after an update of the front end, for example). */
  reload(): Promise<void>;
  /** Restarts Boothdeck itself: the service and the window. */
  relaunch(): Promise<void>;
  /** Hands the screen back to the capture app (console locked or left on its keypad). */
  showBoothScreen(): Promise<void>;
}

/** The IPC channels behind those verbs; the preload and the main process must agree on them. */
export const KIOSK_CHANNELS = {
  getInfo: 'kiosk:get-info',
  reload: 'kiosk:reload',
  relaunch: 'kiosk:relaunch',
  showBoothScreen: 'kiosk:show-booth-screen',
} as const satisfies Record<keyof BoothdeckKioskApi, string>;

export type KioskChannel = (typeof KIOSK_CHANNELS)[keyof typeof KIOSK_CHANNELS];
