import type { CaptureLink } from '../capture/capture-link.js';
import type { Logger } from '../core/logger.js';
import { LiveEvents } from './live-events.js';
import type { PhotoIndexer, RescanReport } from './photo-indexer.js';

/**
 * Runs the indexer: a rescan on each connection to the capture app, the first at start included
 * (photos taken while Boothdeck or the stream was away), and live indexing from its stream.
 */
export class PhotoSync {
  private offEvents: (() => void) | undefined;
  private offState: (() => void) | undefined;
  private running: Promise<RescanReport | undefined> | undefined;
  private again = false;
  /** Live events in order, a few at a time: a burst never holds the event loop. */
  readonly live = new LiveEvents(
    (event) => this.indexer.handle(event),
    () => {
      this.log.warn('The capture app announced more photos at once than are kept waiting: a rescan finds the rest');
      void this.rescan();
    },
  );

  constructor(
    private readonly indexer: PhotoIndexer,
    private readonly link: CaptureLink,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.offEvents = this.link.on((event) => this.live.push(event));
    // Each connection, the first included, may follow photos taken while the stream was down
    // (the capture app often starts after Boothdeck on boot). Before the first one there is
    // nothing to rescan with: new files need the capture app to be matched.
    this.offState = this.link.onState((state) => {
      if (state === 'connected') void this.rescan();
    });
  }

  /** One rescan at a time; a request during one runs one more afterwards. */
  rescan(): Promise<RescanReport | undefined> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.indexer
      .rescan()
      .then(
        (report) => {
          this.log.info(
            `Photo index: ${report.files} file(s), ${report.added} added, ${report.updated} updated, ${report.missing} missing, ${report.unresolved} not yet known to the capture app (${report.ms} ms)`,
          );
          return report;
        },
        (err: unknown) => {
          this.log.error('Photo rescan failed', err);
          return undefined;
        },
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.rescan();
        }
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.offEvents?.();
    this.offState?.();
    this.live.clear();
    await this.live.idle();
    this.indexer.stop();
    this.again = false;
    await this.running;
  }
}
