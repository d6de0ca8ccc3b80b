import { rm } from 'node:fs/promises';
import type { PublishError, PublishQueueState, PublishSettings, PublishStatus } from '../contract/publish.contract.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { EventRow } from '../events/event.repository.js';
import { rowVersion, sealedNamesOf } from './publish-sealed.js';
import { namesList, namesOf, SourceMissingError, type PublishSources } from './publish-files.js';
import type { PublicationRow, PublishRepository } from './publish.repository.js';
import { sendPending, writeEventPage } from './publish-send.js';
import type { PublishTarget } from './publish-destination.js';
import { checkEvent, clearLeftovers, type Listing } from './publish-check.js';
import { MAX_ZIP_BYTES, refreshZip } from './publish-zip.js';
import type { PublishWork } from './publish-tasks.js';
import { CompanyIndex } from './publish-company.js';
import type { StoredLogo } from './publish-brand.js';
import { parsePlace, placeKey, reachOf } from './publish-places.js';
import { publishReasonOf, refuseLostKey } from './publish-failure.js';
import { PROBE_TIMEOUT_MS, RcloneError, remoteJoin, type RclonePort } from './rclone.port.js';

/** Where one event's files go: the destination, and the event's folder in it. */
interface Where {
  target: PublishTarget;
  dest: string;
}

export interface PublishQueueOptions {
  /** The most photos per rclone run: enough for rclone's parallel transfers to pay, few enough to show progress. */
  batchSize: number;
  /** Photos prepared at once (previews made, files laid out) while others are sent: the background workers' count. */
  prepareParallel: number;
  /** While an event is being sent, its page is written again (with the photos online so far) at most this often. */
  indexEveryMs: number;
  /** While previews are being made, a new rclone run starts at most this often (one starts at once with a full batch). */
  batchSpacingMs: number;
  /** The first wait after a failure; it doubles up to `retryMaxMs` while the remote stays unreachable. */
  retryMinMs: number;
  retryMaxMs: number;
  /** A pass now and then even without news, for changes the index made while nobody told the queue. */
  resyncMs: number;
  /** Photos arriving in a burst are sent together: a wake waits this long. */
  settleMs: number;
  /** The event's ZIP is made again at most this often while its photos keep changing. */
  zipSettleMs: number;
  /** The most photo bytes a ZIP holds (past it, none is offered). */
  zipMaxBytes: number;
  /** Told after every pass, whatever came of it: what guests see online may have changed. */
  passed?: () => void;
}

export const defaultQueueOptions: PublishQueueOptions = {
  batchSize: 200,
  prepareParallel: 2,
  indexEveryMs: 15_000,
  batchSpacingMs: 10_000,
  retryMinMs: 5_000,
  retryMaxMs: 5 * 60_000,
  resyncMs: 2 * 60_000,
  settleMs: 1_500,
  zipSettleMs: 10 * 60_000,
  zipMaxBytes: MAX_ZIP_BYTES,
};

export interface PublishQueueDeps {
  repo: PublishRepository;
  rclone: RclonePort;
  sources: PublishSources;
  settings: () => PublishSettings;
  /** The saved destination; null while there is none. */
  target: () => PublishTarget | null;
  event: (id: number) => EventRow | undefined;
  currentEvent: () => EventRow | undefined;
  newToken: () => string;
  clock: Clock;
  log: Logger;
  /** A folder of Boothdeck's where batches are laid out for rclone. */
  stageDir: string;
  /** Sealing and ZIPs, below the capture app. */
  work: PublishWork;
  /** The pages' logo (its name relative to `brandDir`, as beside each page online); null: none. */
  logo: () => StoredLogo | null;
  brandDir: string;
  /** An event's files are gone online: what was kept on the booth to send them (previews) may go too. */
  forgetPreviews?: (eventId: number) => Promise<void>;
  previewsMade: () => number;
  /** Previews made as photos arrive: stopped with the queue. */
  previewsAhead?: { stop(): Promise<void> };
}

/** The event's remote folder: booth name, then the event's unguessable token. */
export function eventDest(root: string, boothName: string, token: string): string {
  return remoteJoin(root, boothName, token);
}

export { dateLabel } from './publish-index.js';

/**
 * The upload queue. Its state lives in SQLite (one row per photo version and event), so a restart
 * or a power cut resumes where it stopped; a failure makes it wait, longer each time, and try again.
 */
export class PublishQueue {
  private timer: TimerHandle | undefined;
  private running = false;
  private again = false;
  private stopped = true;
  private failures = 0;
  private lastError: PublishError | null = null;
  private retryAt: number | null = null;
  private state: PublishQueueState = 'idle';
  private readonly idleWaiters: (() => void)[] = [];
  /** The timer set is only the periodic resync: no pass is due because of news. */
  private onlyResync = true;
  private staleStageCleared = false;
  /** The next pass compares every published event with the remote (the timer's, a retry, the start). */
  private fullCheck = true;
  private passDone: Promise<void> = Promise.resolve();
  private readonly company: CompanyIndex;

  constructor(
    private readonly deps: PublishQueueDeps,
    private readonly options: PublishQueueOptions = defaultQueueOptions,
  ) {
    this.company = new CompanyIndex(deps);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops, and resolves once the pass under way has ended (an rclone run it waits on included). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all([this.passDone, this.deps.previewsAhead?.stop()]);
  }

  /** Something changed (a photo, a request): a pass soon, unless the queue is waiting out a failure. */
  wake(settle = true): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.retryAt !== null) return;
    // A pass already due keeps its time: a steady arrival of photos must not put it off forever.
    if (this.timer !== undefined && !this.onlyResync) return;
    this.schedule(settle ? this.options.settleMs : 0);
  }

  /** The operator changed the settings or tested the remote: try now, whatever the wait. */
  retryNow(): void {
    this.fullCheck = true;
    this.failures = 0;
    this.retryAt = null;
    if (this.running) this.again = true;
    else if (!this.stopped) this.schedule(0);
  }

  status(): PublishStatus {
    const settings = this.deps.settings();
    // Off only when nothing is published: an event put online with its button is kept in line, toggle or not.
    const off = !settings.enabled && this.state === 'idle' && !this.deps.repo.hasActive();
    const state: PublishQueueState = settings.destination === null ? (settings.enabled ? 'unconfigured' : 'off') : off ? 'off' : this.state;
    const left = this.retryAt === null ? null : Math.max(0, this.retryAt - this.deps.clock.monotonic());
    return {
      state,
      last_error: this.lastError,
      retry_at: left === null ? null : new Date(this.deps.clock.now() + left).toISOString(),
      retry_in_s: left === null ? null : Math.ceil(left / 1000),
    };
  }

  /** Resolves once a pass ended with nothing left to send (tests and the bench wait on it). */
  whenIdle(): Promise<void> {
    const due = this.running || (this.timer !== undefined && !this.onlyResync);
    if (!due && !this.deps.repo.hasWork()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(ms: number, resync = false): void {
    if (this.timer) this.deps.clock.clearTimeout(this.timer);
    this.onlyResync = resync;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      if (resync) this.fullCheck = true;
      void this.run();
    }, ms);
  }

  private run(): Promise<void> {
    if (this.running || this.stopped) return this.passDone;
    this.running = true;
    this.passDone = this.runOnce();
    return this.passDone;
  }

  private async runOnce(): Promise<void> {
    this.retryAt = null;
    this.state = 'working';
    try {
      if (this.failures > 0) await this.probe();
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.stopped);
      this.failures = 0;
      this.lastError = null;
      this.state = 'idle';
      if (!this.stopped) this.schedule(this.options.resyncMs, true);
    } catch (err) {
      if (this.stopped) return;
      this.fullCheck = true;
      this.failures += 1;
      const reason =
        err instanceof RcloneError ? err.reason : err instanceof SourceMissingError ? 'source_missing' : (publishReasonOf(err) ?? 'failed');
      this.lastError = { reason, at: new Date(this.deps.clock.now()).toISOString() };
      const wait = this.waitAfter(this.failures);
      this.retryAt = this.deps.clock.monotonic() + wait;
      this.state = 'waiting';
      // rclone names the event's folder, and its token is the gallery's only key: never in a log.
      let detail = err instanceof Error ? err.message : String(err);
      for (const pub of this.deps.repo.publications()) detail = detail.split(pub.token).join('<token>');
      this.deps.log.warn(`Publishing failed (${reason}); next try in ${Math.round(wait / 1000)} s: ${detail}`);
      this.schedule(wait);
    } finally {
      this.running = false;
      if (this.state === 'idle' && !this.again && !this.deps.repo.hasWork()) this.idleWaiters.splice(0).forEach((resolve) => resolve());
      this.options.passed?.();
    }
  }

  /** The wait after the n-th failure in a row: 5 s, then twice as long each time, up to 5 minutes. */
  private waitAfter(failures: number): number {
    return Math.min(this.options.retryMaxMs, this.options.retryMinMs * 2 ** (failures - 1));
  }

  /**
   * After a failure, the remote is first asked something small, bounded in time. While that answer
   * waits (a server that accepts and never answers), the console keeps counting down to the next
   * try, as if this one fails when its time is up; once the remote answers, the work goes on.
   */
  private async probe(): Promise<void> {
    const target = this.deps.target();
    if (target === null) return;
    this.state = 'waiting';
    this.retryAt = this.deps.clock.monotonic() + PROBE_TIMEOUT_MS + this.waitAfter(this.failures + 1);
    await this.deps.rclone.probe(target, remoteJoin(target.root, this.deps.settings().booth_name));
    this.retryAt = null;
    this.state = 'working';
  }

  private async pass(): Promise<void> {
    const settings = this.deps.settings();
    const target = this.deps.target();
    const place = placeKey(settings);
    if (target === null || place === null) return;
    if (!this.staleStageCleared) {
      // Batches laid out before a crash: their hard links would keep deleted photos on the card.
      await rm(this.deps.stageDir, { recursive: true, force: true });
      this.staleStageCleared = true;
    }
    const full = this.fullCheck;
    this.fullCheck = false;
    const { repo } = this.deps;
    repo.expire(this.deps.clock.now());
    const current = this.deps.currentEvent();
    if (settings.enabled && current && !repo.publication(current.id))
      repo.requestPublish(current.id, this.deps.newToken(), this.deps.clock.now());
    // Every event is moved before any is sent: one waiting its turn must not count, or link to,
    // files at the place it left.
    for (const pub of repo.publications()) if (pub.state !== 'withdrawn' && pub.place !== place) this.moveTo(pub, place, target, settings);
    for (const pub of repo.publications()) {
      if (this.stopped) return;
      const dest = eventDest(target.root, settings.booth_name, pub.token);
      // A withdrawal is carried out even with publishing off: taking photos offline is always wanted.
      if (pub.state === 'withdrawing') {
        await this.deps.rclone.purge(target, dest);
        if (this.stopped) return;
        await this.deps.forgetPreviews?.(pub.event_id);
        repo.markWithdrawn(pub.event_id);
      } else if (pub.state === 'publishing') await this.publishEvent(pub, { target, dest }, settings, full);
    }
    if (!this.stopped) await clearLeftovers(this.deps, settings, target, place, () => this.stopped);
    if (!this.stopped) await this.company.sync(target, settings, full);
  }

  /** The destination or the booth name changed since the event was sent: it starts again here, its old copies to remove. */
  private moveTo(pub: PublicationRow, place: string, target: PublishTarget, settings: PublishSettings): void {
    // Rows older than places were sent to the place of the time, most likely this one: the check will tell.
    if (pub.place === null) return this.deps.repo.setPlace(pub.event_id, place);
    const old = parsePlace(pub.place);
    const destination = settings.destination;
    const reachable = old !== null && destination !== null && reachOf(old, { ...destination }, target, pub.token) !== null;
    this.deps.repo.move(pub, place, reachable, this.deps.clock.now());
  }

  private async publishEvent(pub: PublicationRow, where: Where, settings: PublishSettings, full: boolean): Promise<void> {
    refuseLostKey(this.deps.repo.lock(pub.event_id));
    const { worked, listing } = await this.syncEvent(pub, where, settings);
    if (this.stopped || !(worked || full)) return;
    // After each sync, and on the timer: what the remote holds, not what the queue believes. The
    // listing the sending took after its last upload serves when nothing but the page changed since.
    const fresh = this.deps.repo.publication(pub.event_id) ?? pub;
    if (await checkEvent(this.deps, fresh, where, listing)) if (!this.stopped) await this.syncEvent(pub, where, settings);
  }

  /**
   * Sends what is pending, writes the page, removes what is no longer wanted; says whether there
   * was anything to do, and gives the listing taken after the last upload while it still holds.
   */
  private async syncEvent(pub: PublicationRow, where: Where, settings: PublishSettings): Promise<{ worked: boolean; listing?: Listing }> {
    const { repo } = this.deps;
    const { target, dest } = where;
    const photos = new Map(repo.wantedPhotos(pub.event_id).map((p) => [p.id, p]));
    const lock = repo.lock(pub.event_id);
    repo.reconcile(
      pub.event_id,
      [...photos.values()].map((p) => {
        const names = lock === undefined ? namesOf(p) : sealedNamesOf(p, lock);
        return { photo_id: p.id, version: rowVersion(p, lock), names: namesList(names) };
      }),
      this.deps.clock.now(),
    );
    const pending = repo.pending(pub.event_id);
    let worked = pending.length > 0;
    let listing: Map<string, number> | undefined;
    if (pending.length > 0) {
      let written = false;
      let lastIndex = -Infinity;
      await sendPending(this.deps, { pub, event: this.deps.event(pub.event_id), where, settings, photos }, pending, this.options, {
        stopped: () => this.stopped,
        // The page follows the photos: at once after the first batch (the guests' link works), then
        // now and then; after the last one, the pass writes it below.
        sentBatch: async (last, there) => {
          if (last) listing = new Map(there);
          if (last || (written && this.deps.clock.monotonic() - lastIndex < this.options.indexEveryMs)) return;
          written = true;
          lastIndex = this.deps.clock.monotonic();
          await this.writeIndex(pub, where, settings);
        },
      });
      if (this.stopped) return { worked };
    }
    if (!this.stopped && (await this.zip(pub, where))) {
      worked = true;
      listing = undefined;
    }
    if (this.stopped) return { worked };
    if (repo.isIndexStale(pub.event_id)) {
      worked = true;
      await this.writeIndex(pub, where, settings);
      // Written whole (rclone's copy succeeded), with the logo beside it.
      listing?.set('index.html', 0);
      const logo = this.deps.logo();
      if (logo !== null) listing?.set(logo.name, 0);
    }
    // The page no longer lists them: their files may go.
    for (
      let removing = repo.removing(pub.event_id, 500);
      removing.length > 0 && !this.stopped;
      removing = repo.removing(pub.event_id, 500)
    ) {
      worked = true;
      listing = undefined;
      await this.deps.rclone.remove(
        target,
        dest,
        removing.flatMap((r) => JSON.parse(r.names) as string[]),
      );
      if (!this.stopped) repo.markRemoved(pub.event_id, removing);
    }
    return { worked, listing };
  }

  /** The "Tout télécharger" ZIP; a failure on the booth (its card full) leaves the page without it, not the queue stuck. */
  private async zip(pub: PublicationRow, where: Where): Promise<boolean> {
    const event = this.deps.event(pub.event_id);
    if (!event) return false;
    try {
      return await refreshZip(this.deps, pub, event, where, this.options.zipSettleMs, this.options.zipMaxBytes);
    } catch (err) {
      if (err instanceof RcloneError) throw err;
      this.deps.log.warn(`Publishing: the event's ZIP could not be made: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  private writeIndex(pub: PublicationRow, where: Where, settings: PublishSettings): Promise<void> {
    return writeEventPage(this.deps, pub, where, settings, () => this.stopped);
  }
}
