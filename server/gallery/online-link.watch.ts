import type { OnlineLink } from '../contract/publish.contract.js';
import type { EventHub } from '../core/event-hub.js';
import type { Logger } from '../core/logger.js';

/**
 * Tells open galleries when the current event's address online changes (published, withdrawn,
 * moved, another event made current), on the live stream: no phone asks on a timer. Checked
 * when something may have changed it (a publishing pass, an operator's change, a new current
 * event), never on a clock; a phone that was cut off reads the address again when it reconnects.
 */
export class OnlineLinkWatch {
  /** The address last told to the open galleries; undefined: nothing told since the last was closed. */
  private told: string | null | undefined;
  private checking = false;
  private again = false;

  constructor(
    private readonly link: () => Promise<OnlineLink>,
    private readonly hub: EventHub,
    private readonly log: Logger,
  ) {
    hub.subscribe('admin', (message) => {
      if (message.event === 'event') this.check();
    });
  }

  /** Compares the address with the one last told, and sends it to every open gallery if it changed. */
  check(): void {
    if (this.checking) {
      this.again = true;
      return;
    }
    this.checking = true;
    void this.compare()
      .catch((err: unknown) =>
        this.log.warn(`The online address could not be checked: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        this.checking = false;
        if (!this.again) return;
        this.again = false;
        this.check();
      });
  }

  private async compare(): Promise<void> {
    // Nobody to tell: a gallery opened later reads the address itself.
    if (this.hub.slots.openOn('gallery') === 0) {
      this.told = undefined;
      return;
    }
    const link = await this.link();
    if (link.url === this.told) return;
    this.told = link.url;
    this.hub.publish('gallery', 'online', link);
  }
}
