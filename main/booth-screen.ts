/**
 * Who owns the booth's screen. The kiosk window hosts both the capture app's own screen (a
 * full-screen view over the console) and Boothdeck's console (the window's page underneath):
 * guests see the capture app unless the operator has opened the console, and a refresh is a
 * reload of the capture app's view, whatever is on top. Electron-free so tests drive it with fakes.
 */
export interface ScreenLayer {
  setVisible(visible: boolean): void;
}

export interface CaptureLayer extends ScreenLayer {
  /** Reloads the capture app's page, bypassing the cache (it reads its configuration at start). */
  reload(): void;
}

export interface ConsoleLayer {
  focus(): void;
}

export type ScreenOwner = 'booth' | 'console';

export interface BoothScreenDeps {
  capture: CaptureLayer;
  /** The small long-press area in a corner, over the capture app's screen. */
  hotspot: ScreenLayer;
  console: ConsoleLayer;
  log?: (message: string) => void;
}

export class BoothScreen {
  private current: ScreenOwner = 'booth';

  constructor(private readonly deps: BoothScreenDeps) {
    this.deps.capture.setVisible(true);
    this.deps.hotspot.setVisible(true);
  }

  get owner(): ScreenOwner {
    return this.current;
  }

  /** Long press in the corner: the console (its PIN keypad first) comes to the front. */
  showConsole(): void {
    if (this.current === 'console') return;
    this.current = 'console';
    this.deps.capture.setVisible(false);
    this.deps.hotspot.setVisible(false);
    this.deps.console.focus();
    this.deps.log?.('Booth screen: console opened');
  }

  /** The console locked, idle-locked or was left: guests get the capture app back. */
  showBooth(): void {
    if (this.current === 'booth') return;
    this.current = 'booth';
    this.deps.capture.setVisible(true);
    this.deps.hotspot.setVisible(true);
    this.deps.log?.('Booth screen: capture app shown');
  }

  /**
   * After a capture-app restart: reload its view, never the console, even while the console is
   * on top, so guests find the new configuration when the screen is handed back.
   */
  refreshCapture(): void {
    this.deps.capture.reload();
    this.deps.log?.(`Booth screen: capture app reloaded (${this.current} in front)`);
  }
}
