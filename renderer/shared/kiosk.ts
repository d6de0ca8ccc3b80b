import type { BoothdeckKioskApi } from '../../main/preload.types.js';

declare global {
  interface Window {
    /** Present only inside the kiosk window, exposed by its preload. */
    boothdeck?: BoothdeckKioskApi;
  }
}

/** The kiosk's verbs when the console runs in the booth's window; undefined in a browser. */
export const kiosk = (): BoothdeckKioskApi | undefined => window.boothdeck;
