import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { CaptureEvent, MediaItem } from '../capture/capture.types.js';
import { mediaItemSchema } from '../capture/capture.types.js';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { EventRepository } from '../events/event.repository.js';
import type { Logger } from '../core/logger.js';
import { isDiskFull } from '../core/errors.js';
import { DeferredIndex } from './deferred-index.js';
import type { FileState, PhotoRepository, PhotoRow } from './photo.repository.js';
import { captureMediaPath } from '../capture/capture-media.js';
import { MEDIA_FILE } from './media-kind.js';
import { PhotoRows, formatOf } from './photo-rows.js';
import { CollageParts } from './collage-parts.js';
import { MAX_VANISHED_CHECKS, Removals } from './photo-reconcile.js';
import { fileInfoOf, statInSlices, type FileInfo } from './file-stats.js';
import { mediaVersion } from './media-version.js';
import { FirstScreenLead, type FirstScreenOptions } from './first-screen-lead.js';

export interface RescanReport {
  files: number;
  unchanged: number;
  added: number;
  updated: number;
  missing: number;
  /** Photos the capture app no longer has, gone from the index. */
  removed: number;
  /** Files the capture app does not list (yet): left for a later rescan. */
  unresolved: number;
  ms: number;
}

/**
 * `ready`: the processed file has just appeared, so guests see the item from now on.
 * `replaced`: the media version the photo had before its file changed (a filter applied at the
 * booth): every copy made of that version is stale.
 */
export type PhotoChange = { type: 'added' | 'updated'; id: string; ready?: boolean; replaced?: string } | { type: 'removed'; id: string };

/** Items still being processed are looked for again, sooner first, then every half minute. */
const FIRST_RECHECK_MS = 1000;
const MAX_RECHECK_MS = 30_000;
const REMOVED_MEMORY_MS = 10 * 60_000;
const PROCESSED_DIR = ['media', 'processed_full'] as const;
const PAGE = 500;
/**
 * Pages read in one pass at most, whatever the capture app answers (200,000 items): a capture
 * app that ignores `offset` or answers every offset with a full page must not be paged forever.
 */
export const MAX_RESCAN_PAGES = 400;

/** Pages a pass may read for a media folder of `files` files: one each 500, one of slack, never past the hard bound. */
export const rescanPageBound = (files: number): number => Math.min(MAX_RESCAN_PAGES, Math.ceil(files / PAGE) + 1);

/**
 * Keeps the photo index in step with the capture app: live from its DbInsert/DbUpdate/DbRemove
 * events, and by a rescan at start (and after each reconnection) that compares file mtimes and
 * sizes with the index, and asks the capture app only about files it has not seen.
 */
export class PhotoIndexer {
  /** Ids removed lately: a rescan that listed them before their removal must not bring them back. */
  private readonly removed = new Map<string, number>();
  private recheckTimer: TimerHandle | undefined;
  private recheckDelay = FIRST_RECHECK_MS;
  /**
   * Files (stem → mtime) a whole pass over the collection did not find: collage parts and other
   * items with show_in_gallery false are never listed, so looking again on every rescan would
   * page through the whole collection each time. A changed file, or a live event, is looked at again.
   */
  private readonly unresolvable = new Map<string, number>();
  /** Live photos refused for lack of space, indexed again once there is some. */
  readonly deferred: DeferredIndex;
  /** Photos indexed live while a rescan runs: its own, older, view of them must not overwrite them. */
  private liveDuringRescan: Set<string> | undefined;
  private readonly stopWaiters = new Set<() => void>();
  private stopped = false;
  /** Which single captures belong to which collage. */
  readonly parts: CollageParts;
  private readonly removals: Removals;
  private readonly rows: PhotoRows;

  constructor(
    private readonly photos: PhotoRepository,
    private readonly events: EventRepository,
    private readonly capture: CaptureAppPort,
    private readonly captureDataDir: string,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly onChange: (change: PhotoChange) => void,
    private readonly firstScreen?: FirstScreenOptions,
  ) {
    this.rows = new PhotoRows(events, clock);
    this.deferred = new DeferredIndex(clock, log, (item) => this.indexItem(item));
    this.parts = new CollageParts(photos, capture);
    this.removals = new Removals({ photos, capture, clock, log, remove: (id) => this.remove(id) });
  }

  private async statFile(full: string | undefined): Promise<FileInfo | undefined> {
    if (!full) return undefined;
    try {
      return fileInfoOf(await fsp.stat(full));
    } catch {
      return undefined;
    }
  }

  /** Indexes one item the capture app announced. */
  async indexItem(item: MediaItem): Promise<PhotoRow | undefined> {
    this.liveDuringRescan?.add(item.id);
    this.unresolvable.delete(path.basename(item.processed).replace(/\.[^.]+$/, ''));
    const before = this.photos.find(item.id);
    const full = captureMediaPath(this.captureDataDir, item.processed);
    const file = await this.statFile(full);
    const row = this.rows.rowFor(item, file, true, file ? await formatOf(item, full) : undefined, before?.processed === 1);
    if (!row) return undefined;
    // A part of a collage announced live waits for its collage, hidden from guests.
    if (!before) row.part_of = this.parts.partOfNew(item);
    // Announced live: it arrives after every photo already in its event, whatever its stem says.
    if (!before && row.event_id !== null) row.sort_key = this.photos.arrivalKey(row.event_id, row.stem);
    row.updated_at ??= before?.updated_at ?? null;
    this.photos.upsert(row);
    if (!before) this.onChange({ type: 'added', id: row.id });
    else {
      const ready = before.processed === 0 && row.processed === 1;
      const old = mediaVersion(before);
      this.onChange({ type: 'updated', id: row.id, ready, ...(old !== mediaVersion(row) ? { replaced: old } : {}) });
    }
    if (row.processed === 0) this.recheckSoon();
    for (const part of this.parts.afterIndexed(item)) this.onChange({ type: 'updated', id: part });
    return row;
  }

  /** Looks again, with growing delays, for the files of items still being processed. */
  private recheckSoon(): void {
    if (this.recheckTimer) return;
    this.recheckTimer = this.clock.setTimeout(() => {
      this.recheckTimer = undefined;
      void this.recheckUnprocessed().then(
        (left) => {
          this.recheckDelay = left > 0 ? Math.min(this.recheckDelay * 2, MAX_RECHECK_MS) : FIRST_RECHECK_MS;
          if (left > 0) this.recheckSoon();
        },
        (err: unknown) => this.log.error('Could not check photos being processed', err),
      );
    }, this.recheckDelay);
  }

  /** Marks the items whose processed file has appeared; returns how many are still waiting. */
  async recheckUnprocessed(): Promise<number> {
    let left = 0;
    for (const pending of this.photos.unprocessed()) {
      const info = await this.statFile(captureMediaPath(this.captureDataDir, pending.file));
      if (!info) {
        left++;
        continue;
      }
      this.photos.updateFile(pending.stem, info.mtime, info.size, this.clock.now());
      this.onChange({ type: 'updated', id: pending.id, ready: true });
    }
    return left;
  }

  stop(): void {
    if (this.recheckTimer) this.clock.clearTimeout(this.recheckTimer);
    this.recheckTimer = undefined;
    this.deferred.stop();
    this.stopped = true;
    this.stopWaiters.forEach((wake) => wake());
    this.stopWaiters.clear();
  }

  remove(id: string): void {
    const now = this.clock.monotonic();
    this.deferred.forget(id);
    this.removed.set(id, now);
    for (const [key, at] of this.removed) if (at < now - REMOVED_MEMORY_MS) this.removed.delete(key);
    if (this.photos.remove(id)) this.onChange({ type: 'removed', id });
  }

  /** Entry point for the capture app's live stream. */
  handle(event: CaptureEvent): Promise<void> {
    if (event.event === 'ProcessStateinfo') {
      for (const part of this.parts.onState(event)) this.onChange({ type: 'updated', id: part.id, ready: part.released });
      return Promise.resolve();
    }
    const parsed = mediaItemSchema.safeParse(event.data);
    if (!parsed.success) return Promise.resolve();
    if (event.event === 'DbInsert' || event.event === 'DbUpdate') {
      return this.indexItem(parsed.data).then(
        // A write went through: space is back for those that waited.
        () => (this.deferred.size > 0 ? this.deferred.retryNow() : undefined),
        (err: unknown) => {
          if (isDiskFull(err)) this.deferred.add(parsed.data);
          else this.log.error(`Could not index photo ${parsed.data.id}`, err);
        },
      );
    }
    if (event.event === 'DbRemove') {
      try {
        this.remove(parsed.data.id);
      } catch (err) {
        // A full disk: the row stays until the next rescan finds its file gone.
        this.log.error(`Could not remove photo ${parsed.data.id} from the index`, err);
      }
    }
    return Promise.resolve();
  }

  async rescan(): Promise<RescanReport> {
    const started = this.clock.monotonic();
    for (const part of this.parts.releaseStale()) this.onChange({ type: 'updated', id: part.id, ready: part.released });
    const dir = path.join(this.captureDataDir, ...PROCESSED_DIR);
    let names: string[] = [];
    let readable = true;
    try {
      names = (await fsp.readdir(dir)).filter((n) => MEDIA_FILE.test(n));
    } catch (err) {
      readable = false;
      this.log.warn(`Cannot read ${dir}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const known = new Map(this.photos.fileStates().map((f) => [f.stem, f]));
    const onDisk = new Set<string>();
    const fresh = new Map<string, FileInfo>();
    const changed: { stem: string; info: FileInfo; row: FileState }[] = [];
    let unchanged = 0;
    let remembered = 0;

    // The names come from readdir, with no separator in them: path.join's normalising cost a
    // quarter of a second for 100,000 of them.
    const prefix = dir + path.sep;
    const infos = await statInSlices(
      names.map((name) => prefix + name),
      () => this.clock.monotonic(),
    );
    names.forEach((name, i) => {
      const info = infos[i];
      if (!info) return;
      const stem = name.replace(/\.[^.]+$/, '');
      onDisk.add(stem);
      const row = known.get(stem);
      if (!row && this.unresolvable.get(stem) === info.mtime) remembered++;
      else if (!row) fresh.set(stem, info);
      else if (row.mtime !== info.mtime || row.size !== info.size || row.missing || !row.processed) {
        changed.push({ stem, info, row });
      } else unchanged++;
    });
    // An item still being processed has no file yet: it has not vanished. One found missing
    // before is asked about again: the capture app may have deleted it since. A folder that
    // cannot be read (the capture app runs elsewhere) says nothing of what vanished.
    const vanished = readable ? [...known.values()].filter((f) => f.processed && !onDisk.has(f.stem)) : [];

    // Each page of new photos is saved and announced as soon as it is matched, newest first, the
    // current event's first screen ahead of the rest (FirstScreenLead): on a first index of a large
    // folder, galleries get the newest photos, drawn, while older pages are still being matched.
    let added = 0;
    if (fresh.size > 0) {
      this.liveDuringRescan = new Set();
      let wake = (): void => undefined;
      const stopped = new Promise<void>((resolve) => (this.stopped ? resolve() : this.stopWaiters.add((wake = resolve))));
      const save = (rows: PhotoRow[]): void => {
        const kept = rows.filter((r) => !this.removed.has(r.id) && !this.liveDuringRescan?.has(r.id));
        this.photos.upsertMany(kept);
        kept.forEach((r) => this.onChange({ type: 'added', id: r.id }));
        added += kept.length;
      };
      const order = new FirstScreenLead(this.events.current()?.id, this.firstScreen, save, this.clock, stopped);
      try {
        await this.resolve(fresh, names.length, (page) => order.take(page));
        // A full disk: what was not saved is found new again by the next rescan.
        await order.done().catch((err: unknown) => this.log.error('Could not save newly found photos to the index', err));
      } finally {
        this.stopWaiters.delete(wake);
        this.liveDuringRescan = undefined;
      }
    }
    const at = this.clock.now();
    changed.forEach((c) => this.photos.updateFile(c.stem, c.info.mtime, c.info.size, at));
    const gone = await this.removals.settleVanished(vanished);
    // Without the folder, or past what can be asked one by one, the capture app's whole list
    // tells what it no longer has.
    const removed = !readable || vanished.length > MAX_VANISHED_CHECKS ? await this.removals.settleUnlisted(started) : 0;
    // A file rewritten while Boothdeck was away (a filter applied at the booth) makes its copies
    // stale, as a live DbUpdate would.
    for (const { row, info } of changed) {
      const old = mediaVersion(row);
      const replaced = old !== mediaVersion({ ...info, updated_at: row.updated_at }) ? { replaced: old } : {};
      if (!row.processed) this.onChange({ type: 'updated', id: row.id, ready: true, ...replaced });
      else if (replaced.replaced !== undefined || row.missing) this.onChange({ type: 'updated', id: row.id, ...replaced });
    }

    return {
      files: onDisk.size,
      unchanged,
      added,
      updated: changed.length,
      missing: vanished.length - gone,
      removed: gone + removed,
      unresolved: fresh.size - added + remembered,
      ms: Math.round(this.clock.monotonic() - started),
    };
  }

  /**
   * Finds the capture app's items for new files, newest first, stopping once all are found;
   * hands over the rows of each page of the capture app's list as it is read. Paging also stops
   * at a page that brings no item not seen in this pass (a capture app that ignores `offset`),
   * once past as many items as its media folder holds files (every listed item has one; a page
   * of slack for photos taken meanwhile), and at MAX_RESCAN_PAGES whatever happens.
   */
  private async resolve(fresh: Map<string, FileInfo>, filesOnDisk: number, found: (rows: PhotoRow[]) => void): Promise<void> {
    const wanted = new Set(fresh.keys());
    const seen = new Set<string>();
    const maxPages = rescanPageBound(filesOnDisk);
    let counts: Promise<Map<string, number[]>> | undefined;
    const partCounts = (): Promise<Map<string, number[]>> => (counts ??= this.parts.partCounts());
    try {
      for (let pageNo = 0; wanted.size > 0 && pageNo < maxPages; pageNo++) {
        const page = await this.capture.listMedia(pageNo * PAGE, PAGE);
        const matched: MediaItem[] = [];
        let newItems = 0;
        for (const item of page) {
          if (seen.has(item.id)) continue;
          seen.add(item.id);
          newItems++;
          const stem = path.basename(item.processed).replace(/\.[^.]+$/, '');
          if (!wanted.has(stem)) continue;
          wanted.delete(stem);
          matched.push(item);
        }
        const partOf = await this.parts.groupFound(matched, partCounts);
        const rows: PhotoRow[] = [];
        for (const item of matched) {
          const full = captureMediaPath(this.captureDataDir, item.processed);
          const row = this.rows.rowFor(
            item,
            fresh.get(path.basename(item.processed).replace(/\.[^.]+$/, '')),
            false,
            await formatOf(item, full),
          );
          if (!row) continue;
          row.part_of = partOf.get(item.id) ?? null;
          rows.push(row);
        }
        // A part belongs to its collage's event, even taken a moment before the event began.
        const eventOf = new Map(rows.map((r) => [r.id, r.event_id]));
        for (const row of rows) if (row.part_of !== null) row.event_id = eventOf.get(row.part_of) ?? row.event_id;
        if (rows.length > 0) found(rows);
        if (page.length < PAGE) break;
        if (newItems === 0) {
          this.log.warn(`The capture app answered page ${pageNo + 1} of its media with items already listed: paging stopped`);
          break;
        }
      }
      for (const stem of wanted) this.unresolvable.set(stem, fresh.get(stem)?.mtime ?? 0);
    } catch (err) {
      this.log.warn(`Could not list the capture app's media to index new files: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
