import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { PhotoRow } from './photo.repository.js';

/** What a rescan needs to put the current event's first screen ahead of the rest. */
export interface FirstScreenOptions {
  /** Photos on a gallery's first screen (its first page). */
  photos: number;
  /** Resolves once these photos' thumbnails are made (or found unmakeable). */
  ready: (ids: string[]) => Promise<void>;
}

/**
 * The longest the rest of an index waits for the first screen's thumbnails: a Pi 4 makes the
 * 72 thumbnails of 8 MB camera photos in about ten seconds; a stuck source must not hold the index.
 */
export const FIRST_SCREEN_WAIT_MS = 15_000;

const newestFirst = (a: PhotoRow, b: PhotoRow): number => (a.sort_key < b.sort_key ? 1 : a.sort_key > b.sort_key ? -1 : 0);

/**
 * The order in which one rescan saves the new photos it matched. The current event's newest ones
 * (the next guest's first screen) are saved at once and their thumbnails made; every other row
 * is saved once those thumbnails are there. An index never ends with a gallery whose first screen
 * still has to be drawn from 3 MB camera files, one decode after another, while a guest waits.
 * The capture app's list keeps being read meanwhile: only the saving waits.
 */
export class FirstScreenLead {
  private led = false;
  private held: Promise<void> = Promise.resolve();

  constructor(
    private readonly currentEventId: number | undefined,
    private readonly options: FirstScreenOptions | undefined,
    private readonly save: (rows: PhotoRow[]) => void,
    private readonly clock: Clock,
    /** Resolves when the service stops: nothing is waited for past that. */
    private readonly stopped: Promise<void>,
  ) {}

  /** A page of new rows, newest pages first. */
  take(rows: PhotoRow[]): void {
    if (!this.led && this.options && this.currentEventId !== undefined) {
      const lead = rows
        .filter((r) => r.event_id === this.currentEventId && r.processed === 1 && r.visible === 1)
        .sort(newestFirst)
        .slice(0, this.options.photos);
      if (lead.length > 0) {
        this.led = true;
        const ids = new Set(lead.map((r) => r.id));
        const rest = rows.filter((r) => !ids.has(r.id));
        this.save(lead);
        const ready = this.bounded(this.options.ready([...ids]));
        this.held = this.held.then(() => ready).then(() => this.save(rest));
        return;
      }
    }
    this.held = this.held.then(() => this.save(rows));
  }

  /** Resolves once every row taken is saved; rejects if a save failed (those after it are not tried). */
  done(): Promise<void> {
    return this.held;
  }

  private bounded(work: Promise<void>): Promise<void> {
    let timer: TimerHandle | undefined;
    const deadline = new Promise<void>((resolve) => (timer = this.clock.setTimeout(resolve, FIRST_SCREEN_WAIT_MS)));
    return Promise.race([work.catch(() => undefined), deadline, this.stopped]).finally(() => {
      if (timer !== undefined) this.clock.clearTimeout(timer);
    });
  }
}
