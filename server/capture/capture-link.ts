import type { Logger } from '../core/logger.js';
import type { CaptureAppPort, CaptureConnectionState, CaptureSubscription } from './capture.port.js';
import type { CaptureEvent } from './capture.types.js';

export type CaptureEventListener = (event: CaptureEvent) => void;

/**
 * The service's one live stream from the capture app. Internal parts (indexer, flash, the
 * console's status) listen here instead of each opening their own connection.
 */
export class CaptureLink {
  private subscription: CaptureSubscription | undefined;
  private readonly listeners = new Set<CaptureEventListener>();
  private readonly stateListeners = new Set<(state: CaptureConnectionState) => void>();
  private current: CaptureConnectionState = 'disconnected';
  private lastEventAt: number | undefined;

  constructor(
    private readonly capture: CaptureAppPort,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.subscription) return;
    this.subscription = this.capture.subscribe(
      (event) => {
        this.lastEventAt = Date.now();
        for (const listener of this.listeners) {
          try {
            listener(event);
          } catch (err) {
            this.log.error(`A listener failed on capture event ${event.event}`, err);
          }
        }
      },
      (state) => {
        if (state !== this.current && state !== 'connecting') {
          this.log.info(`Capture app stream ${state}`);
        }
        this.current = state;
        this.stateListeners.forEach((l) => l(state));
      },
    );
  }

  stop(): void {
    this.subscription?.close();
    this.subscription = undefined;
    this.current = 'disconnected';
  }

  on(listener: CaptureEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onState(listener: (state: CaptureConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  get state(): CaptureConnectionState {
    return this.current;
  }

  get lastEventTime(): number | undefined {
    return this.lastEventAt;
  }
}
