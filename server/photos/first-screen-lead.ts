import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { PhotoRow } from './photo.repository.js';

/** What a rescan needs to put the current event's first screen ahead of the rest. */
export interface FirstScreenOptions {
  /** Photos on a gallery's first screen (its first page). */
  photos: number;
  /**
   * Resolves once these photos' thumbnails are made (or found unmakeable). `signal` aborts when
   * the index no longer waits for them: what has not started by then is left to the queue.
   */
  ready: (ids: string[], signal: AbortSignal) => Promise<void>;
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
  private leadLeft: number;
  private readonly readies: Promise<void>[] = [];
  private readonly abort = new AbortController();
  private deadline: Promise<void> | undefined;
  private timer: TimerHandle | undefined;
  private held: Promise<void> = Promise.resolve();

  constructor(
    private readonly currentEventId: number | undefined,
    private readonly options: FirstScreenOptions | undefined,
    private readonly save: (rows: PhotoRow[]) => void,
    private readonly clock: Clock,
    /** Resolves when the service stops: nothing is waited for past that. */
    private readonly stopped: Promise<void>,
  ) {
    this.leadLeft = options?.photos ?? 0;
  }

  /** A page of new rows, newest pages first. */
  take(rows: PhotoRow[]): void {
    const lead = this.leadOf(rows);
    if (lead.length > 0 && this.options) {
      // The capture app lists newest first: an event's newest photos may end one page and go on
      // into the next, so the first screen is filled from as many pages as it takes.
      this.leadLeft -= lead.length;
      this.save(lead);
      this.deadline ??= new Promise<void>((resolve) => (this.timer = this.clock.setTimeout(resolve, FIRST_SCREEN_WAIT_MS)));
      this.readies.push(
        this.options
          .ready(
            lead.map((r) => r.id),
            this.abort.signal,
          )
          .catch(() => undefined),
      );
      const ids = new Set(lead.map((r) => r.id));
      rows = rows.filter((r) => !ids.has(r.id));
    }
    if (rows.length === 0) return;
    const readies = [...this.readies];
    this.chain(async () => {
      if (readies.length > 0) await Promise.race([Promise.all(readies), this.deadline, this.stopped]);
      // Lets requests in between two held pages: saving and announcing 500 rows is a few milliseconds of work.
      await nextTurn();
      this.save(rows);
    });
  }

  /** Resolves once every row taken is saved; rejects if a save failed (those after it are not tried). */
  async done(): Promise<void> {
    try {
      await this.held;
    } finally {
      if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
      this.abort.abort();
    }
  }

  private leadOf(rows: PhotoRow[]): PhotoRow[] {
    if (this.leadLeft <= 0 || this.currentEventId === undefined) return [];
    return rows
      .filter((r) => r.event_id === this.currentEventId && r.processed === 1 && r.visible === 1)
      .sort(newestFirst)
      .slice(0, this.leadLeft);
  }

  private chain(next: () => Promise<void>): void {
    this.held = this.held.then(next);
    // A failed save is reported by done(), once paging is over; until then it must not count as
    // an unhandled rejection (which would end the process).
    this.held.catch(() => undefined);
  }
}
