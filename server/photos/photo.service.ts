import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import type { CaptureAppPort, CaptureFile } from '../capture/capture.port.js';
import type { AdminPhoto, CollagePartsMode, GalleryEvent, PhotoPage, PublicPhoto } from '../contract/photos.contract.js';
import { CaptureAppError, NotFoundError, ValidationError } from '../core/errors.js';
import type { EventRepository } from '../events/event.repository.js';
import { photoFileName } from '../events/file-names.js';
import type { EventHub } from '../core/event-hub.js';
import type { PhotoChange } from './photo-indexer.js';
import {
  PENDING_PART,
  type PartsFilter,
  type PhotoQuery,
  type PhotoRepository,
  type PhotoRow,
  type PhotoWithEvent,
} from './photo.repository.js';
import { isoOrNull as iso } from '../core/util/json.js';
import { contentTypeOf, isMoving } from './media-kind.js';
import { mediaVersion } from './media-version.js';
import type { Picture, PhotoMedia, Preview } from './photo-media.js';

export interface AdminFilters {
  event?: string;
  from?: number;
  to?: number;
  status: 'all' | 'printed' | 'not_printed';
  cursor?: string;
  limit: number;
}

export interface PhotoDownload {
  fileName: string;
  file: CaptureFile;
}

/** A video or animation to play: the local file (served with ranges) or the capture app's copy. */
export type MediaSource = { local: string; contentType: string } | { remote: CaptureFile };

/** A cursor names the sort key of the last photo given: a stem, or a stem and an arrival count (`~`). */
const encodeCursor = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const stem = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[\w.~-]{1,80}$/.test(stem)) throw new ValidationError('Invalid query: cursor: is not a cursor this service gave');
  return stem;
}

type Scope = 'admin' | 'gallery';

type PublicPage = PhotoPage<PublicPhoto> & { event: GalleryEvent | null };
/** Distinct pages kept; guests mostly ask for the first ones. */
const PUBLIC_PAGES_KEPT = 64;
/**
 * The newest photos drawn into the gallery's page: a phone's first screen shows 27 of them and a
 * 1280×800 one 36. Their thumbnails are made before any other's.
 */
export const FIRST_SCREEN_PHOTOS = 72;

/** The photo index as the two galleries see it, and the files behind it. */
export class PhotoService {
  constructor(
    private readonly photos: PhotoRepository,
    private readonly events: EventRepository,
    private readonly capture: CaptureAppPort,
    private readonly pictures: PhotoMedia,
    private readonly hub: EventHub,
    /** How guests see a collage's parts (the gallery setting), read at each request. */
    private readonly partsMode: () => CollagePartsMode = () => 'hidden',
  ) {}

  /** Which parts a guests' list leaves out: all of them, unless the operator shows them as photos. */
  private guestParts(): PartsFilter {
    return this.partsMode() === 'photos' ? 'none' : 'all';
  }

  /** The collage a part is grouped under, null for anything else (and for a part still waiting for it). */
  private static parentOf(row: PhotoRow): string | null {
    return row.part_of !== null && !row.part_of.startsWith(PENDING_PART) ? row.part_of : null;
  }

  /**
   * A collage's single shot guests may not reach by its id: hidden (the default), or shown with
   * its collage while that collage is not known yet. The operator still sees and prints it.
   */
  partHiddenFromGuests(row: PhotoRow): boolean {
    if (row.part_of === null) return false;
    const mode = this.partsMode();
    return !(mode === 'photos' || (mode === 'with_collage' && PhotoService.parentOf(row) !== null));
  }

  /** Whether guests may see this photo now: made, not lost, of the current event, and not a part they are not shown. */
  private shownToGuests(row: PhotoWithEvent): boolean {
    if (row.visible !== 1 || row.processed !== 1 || row.missing === 1) return false;
    if (row.event_id === null || row.event_id !== (this.events.current()?.id ?? -1)) return false;
    return !this.partHiddenFromGuests(row);
  }

  /** The photo's version is in every URL of a picture drawn from it: a filtered photo is a new URL. */
  private urls(scope: Scope, row: PhotoWithEvent): AdminPhoto['urls'] {
    const base = `/api/${scope}/photos/${row.id}`;
    const v = `?v=${mediaVersion(row)}`;
    const urls: AdminPhoto['urls'] = { thumb: `${base}/thumb${v}`, preview: `${base}/preview${v}`, download: `${base}/download` };
    if (isMoving(row.kind)) urls.media = `${base}/media${v}`;
    return urls;
  }

  /** The version of a photo still in the index, or undefined. */
  versionOf(id: string): string | undefined {
    const row = this.photos.find(id);
    return row ? mediaVersion(row) : undefined;
  }

  private fileName(row: PhotoWithEvent): string {
    return photoFileName(row.event_name, row.stem, this.photos.rankInSecond(row), path.extname(row.file));
  }

  toAdmin(row: PhotoWithEvent): AdminPhoto {
    return {
      id: row.id,
      kind: row.kind,
      event: row.event_slug && row.event_name ? { slug: row.event_slug, name: row.event_name } : null,
      taken_at: new Date(row.taken_at).toISOString(),
      created_at: iso(row.created_at),
      mtime: new Date(row.mtime).toISOString(),
      processed: row.processed === 1,
      printed_copies: row.printed_copies,
      missing: row.missing === 1,
      file_name: this.fileName(row),
      urls: this.urls('admin', row),
      part_of: PhotoService.parentOf(row),
    };
  }

  toPublic(row: PhotoWithEvent): PublicPhoto {
    return {
      id: row.id,
      kind: row.kind,
      taken_at: new Date(row.taken_at).toISOString(),
      printed_copies: row.printed_copies,
      urls: this.urls('gallery', row),
    };
  }

  private page<P>(rows: PhotoWithEvent[], limit: number, map: (row: PhotoWithEvent) => P): PhotoPage<P> {
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const last = shown[shown.length - 1];
    return { photos: shown.map(map), next_cursor: more && last ? encodeCursor(last.sort_key) : null };
  }

  /** The parts of the collages among `rows`, by collage id. */
  private partsByCollage(rows: readonly PhotoWithEvent[]): Map<string, PhotoWithEvent[]> {
    const byCollage = new Map<string, PhotoWithEvent[]>();
    const collages = rows.filter((r) => r.kind !== 'photo' && r.kind !== 'video').map((r) => r.id);
    for (const part of this.photos.partsOf(collages)) {
      const parent = part.part_of as string;
      byCollage.set(parent, [...(byCollage.get(parent) ?? []), part]);
    }
    return byCollage;
  }

  /** A collage with its parts listed under it, for the operator. */
  private withAdminParts(rows: PhotoWithEvent[]): (row: PhotoWithEvent) => AdminPhoto {
    const parts = this.partsByCollage(rows);
    return (row) => {
      const own = parts.get(row.id);
      return own ? { ...this.toAdmin(row), parts: own.map((p) => this.toAdmin(p)) } : this.toAdmin(row);
    };
  }

  /** A collage with the parts guests may see in its lightbox, when the operator shows them so. */
  private withPublicParts(rows: PhotoWithEvent[]): (row: PhotoWithEvent) => PublicPhoto {
    if (this.partsMode() !== 'with_collage') return (row) => this.toPublic(row);
    const parts = this.partsByCollage(rows);
    return (row) => {
      const own = parts.get(row.id)?.filter((p) => p.processed === 1 && p.missing === 0);
      return own?.length ? { ...this.toPublic(row), parts: own.map((p) => this.toPublic(p)) } : this.toPublic(row);
    };
  }

  listAdmin(filters: AdminFilters): PhotoPage<AdminPhoto> {
    // Parts come under their collage, not on their own.
    const query: PhotoQuery = { limit: filters.limit + 1, parts: 'grouped' };
    if (filters.event !== undefined) {
      const event = this.events.findBySlug(filters.event);
      if (!event) throw new NotFoundError(`There is no event "${filters.event}"`);
      query.eventId = event.id;
    }
    if (filters.from !== undefined) query.from = filters.from;
    if (filters.to !== undefined) query.to = filters.to;
    if (filters.status !== 'all') query.printed = filters.status === 'printed';
    if (filters.cursor !== undefined) query.before = decodeCursor(filters.cursor);
    const rows = this.photos.query(query);
    return this.page(rows, filters.limit, this.withAdminParts(rows));
  }

  /** Public pages as last read, and the database's change count they were checked at. */
  private publicPages = new Map<string, { page: PublicPage; stamp: number; text: string }>();

  /**
   * The current event's photos only, once processed: guests never see another event. Every phone
   * asks for the same first pages: they are answered from memory until the database changes, and
   * a page read again after a change that left it as it was (a print job, an upload's progress)
   * is still the same object, so that its encoded body, tag and compressed gallery page are kept.
   */
  listPublic(cursor: string | undefined, limit: number): PublicPage {
    const stamp = this.photos.changeCount();
    const key = `${cursor ?? ''}:${limit}`;
    const cached = this.publicPages.get(key);
    if (cached?.stamp === stamp) return cached.page;
    const fresh = this.readPublic(cursor, limit);
    const text = JSON.stringify(fresh);
    const page = cached?.text === text ? cached.page : fresh;
    if (!cached && this.publicPages.size >= PUBLIC_PAGES_KEPT) this.publicPages.clear();
    this.publicPages.set(key, { page, stamp, text });
    return page;
  }

  private readPublic(cursor: string | undefined, limit: number): PublicPage {
    const current = this.events.current();
    if (!current) return { photos: [], next_cursor: null, event: null };
    const parts = this.guestParts();
    const query: PhotoQuery = { eventId: current.id, limit: limit + 1, processedOnly: true, parts };
    if (cursor !== undefined) query.before = decodeCursor(cursor);
    const event: GalleryEvent = {
      name: current.name,
      photo_count: this.photos.countShown(current.id, parts),
      welcome: current.welcome,
    };
    const rows = this.photos.query(query);
    return { ...this.page(rows, limit, this.withPublicParts(rows)), event };
  }

  /** A photo a scope may see; for guests, only one of the current event. */
  private visible(scope: Scope, id: string): PhotoWithEvent {
    const row = this.photos.find(id);
    const allowed = row && row.visible === 1 && (scope === 'admin' || this.shownToGuests(row));
    if (!row || !allowed) throw new NotFoundError('No such photo');
    return row;
  }

  thumbnail(scope: Scope, id: string): Promise<Picture> {
    return this.pictures.thumbnail(this.visible(scope, id), 'request');
  }

  /**
   * Whether a photo is on the first screen of the current event's gallery: the next guest to
   * open it waits for its thumbnail, so it is made before the others.
   */
  onFirstScreen(row: PhotoWithEvent): boolean {
    const current = this.events.current();
    if (!current || !this.shownToGuests(row) || (row.part_of !== null && this.partsMode() !== 'photos')) return false;
    return this.photos.amongNewestShown(current.id, row.sort_key, FIRST_SCREEN_PHOTOS, this.guestParts());
  }

  /** Makes a newly indexed (or rewritten) photo's thumbnail, and a video's poster, before any gallery asks. */
  async prepareThumbnail(id: string, firstScreen = false): Promise<void> {
    const row = this.photos.find(id);
    // An item still being processed comes back through the queue once it is ready.
    if (!row || row.visible !== 1 || row.missing === 1 || row.processed !== 1 || this.pictures.hasThumbnail(row)) return;
    await this.pictures.thumbnail(row, firstScreen ? 'first-screen' : 'background');
  }

  /** A still's preview from the capture app, or a video's poster (the capture app's copies of a video are MP4s). */
  preview(scope: Scope, id: string): Promise<Preview> {
    return this.pictures.preview(this.visible(scope, id));
  }

  /** A video or an animation itself, to be played. */
  async media(scope: Scope, id: string): Promise<MediaSource> {
    const row = this.visible(scope, id);
    if (!isMoving(row.kind)) throw new NotFoundError('This photo is a still image');
    const local = this.pictures.localFile(row);
    if (local) return { local, contentType: contentTypeOf(row.file) };
    const remote = await this.capture.openMedia('full', row.id);
    if (!remote) throw new NotFoundError('The photo’s file is missing');
    return { remote };
  }

  private openLocal(row: PhotoWithEvent): CaptureFile | undefined {
    const local = this.pictures.localFile(row);
    if (!local) return undefined;
    return { stream: createReadStream(local), contentType: contentTypeOf(row.file), contentLength: statSync(local).size };
  }

  /**
   * The full file under a name made of the event and the time: a still through the capture app,
   * a video or an animation from its own file (the capture app's copies of those are stills).
   */
  async download(scope: Scope, id: string): Promise<PhotoDownload> {
    const row = this.visible(scope, id);
    const file = (isMoving(row.kind) ? this.openLocal(row) : undefined) ?? (await this.capture.openMedia('full', row.id));
    if (!file) throw new NotFoundError('The photo’s file is missing');
    return { fileName: this.fileName(row), file };
  }

  async delete(id: string): Promise<void> {
    const row = this.visible('admin', id);
    // An unknown id and a failure look alike in the capture app's answer: ask again.
    if (!(await this.capture.deleteMedia(row.id)) && (await this.capture.getMediaItem(row.id)) !== null) {
      throw new CaptureAppError('The capture app did not delete the photo; it is kept');
    }
    if (this.photos.remove(row.id)) this.announce({ type: 'removed', id: row.id });
  }

  /** Tells open galleries about a change of the index; answers the photo when it is still shown. */
  announce(change: PhotoChange): PhotoWithEvent | undefined {
    const row = change.type === 'removed' ? undefined : this.photos.find(change.id);
    // A photo hidden by an update leaves the galleries as a removed one does.
    if (!row || row.visible !== 1) {
      void this.pictures.forget(change.id);
      this.hub.publish('admin', 'photo-removed', { id: change.id });
      this.hub.publish('gallery', 'photo-removed', { id: change.id });
      return undefined;
    }
    // A file rewritten at the booth (a filter): the copies of the old picture go; the new URLs follow.
    if (change.type === 'updated' && change.replaced !== undefined) void this.pictures.forget(change.id, change.replaced);
    const event = change.type === 'added' ? 'photo-added' : 'photo-updated';
    this.hub.publish('admin', event, this.toAdmin(row));
    if (!this.shownToGuests(row) || (row.part_of !== null && this.partsMode() !== 'photos')) {
      // Gone from their grid (found missing, grouped under its collage).
      if (change.type === 'updated') this.hub.publish('gallery', 'photo-removed', { id: row.id });
      // A part joining its collage changes what the collage shows in its lightbox.
      const parent = PhotoService.parentOf(row);
      if (parent !== null && this.partsMode() === 'with_collage') this.announceCollage(parent);
      return row;
    }
    // Guests meet an item once it is processed: that is its arrival for them.
    this.hub.publish('gallery', change.type === 'updated' && change.ready ? 'photo-added' : event, this.toPublic(row));
    return row;
  }

  /** Tells open galleries that a collage's parts changed. */
  private announceCollage(id: string): void {
    const collage = this.photos.find(id);
    if (!collage || !this.shownToGuests(collage)) return;
    this.hub.publish('gallery', 'photo-updated', this.withPublicParts([collage])(collage));
  }
}
