import type { MediaKind } from '../contract/photos.contract.js';
import type { Db } from '../db/database.js';
import { SecretBox } from '../core/secrets/secret-box.js';
import type { EventLock } from './publish-lock.js';
import type { ZipState } from './publish-zip.js';

export type PublicationState = 'publishing' | 'withdrawing' | 'withdrawn';
export type FileState = 'pending' | 'online' | 'removing';

export interface PublicationRow {
  event_id: number;
  token: string;
  state: PublicationState;
  requested_at: number;
  index_stale: number;
  index_at: number | null;
  /** Where its files were last sent (see placeKey); null for rows older than places. */
  place: string | null;
  /** The moment it leaves the remote; null: never. */
  expires_at: number | null;
  /** The last comparison of the queue with the remote. */
  checked_at: number | null;
  /** The event's ZIP online, as JSON (ZipState); null: none yet. */
  zip: string | null;
}

/** Copies of an event at a place the booth no longer publishes to. */
export interface LeftoverRow {
  id: number;
  event_id: number;
  place: string;
  token: string;
  removable: number;
  created_at: number;
}

export interface PublishFileRow {
  event_id: number;
  photo_id: string;
  version: string;
  /** JSON array of the names this version has under the event's path. */
  names: string;
  state: FileState;
  /** Left from migration 008, already run on booths: nothing counts it any more. */
  attempts: number;
  updated_at: number;
  /** JSON array of each name's size as sent (migration 014); null for rows sent before, whose names alone are compared. */
  sizes: string | null;
  /** The thumbnail's width and height, for the tile's proportions; null for rows sent before. */
  thumb_w: number | null;
  thumb_h: number | null;
}

/** A row the remote was seen to hold whole: the sizes it was listed with, and its thumbnail's shape. */
export interface ConfirmedFile {
  photo_id: string;
  version: string;
  sizes: readonly number[];
  thumb: { width: number; height: number } | null;
}

/** A photo of an event as the publisher needs it. */
export interface PublishablePhoto {
  id: string;
  stem: string;
  file: string;
  kind: MediaKind;
  taken_at: number;
  mtime: number;
  size: number;
  updated_at: number | null;
}

export interface WantedFile {
  photo_id: string;
  version: string;
  names: string[];
}

export interface Counts {
  online: number;
  total: number;
}

/** The upload queue and the events put online. All publishing SQL lives here. */
/** What a gallery's sealed key is bound to: its event, so a key moved to another row does not open. */
export const lockPurpose = (eventId: number): string => `publish.lock.${eventId}`;

export class PublishRepository {
  constructor(
    private readonly db: Db,
    /**
     * Whether guests see a collage's single shots as photos of their own (the gallery setting):
     * otherwise they are never put online, as the booth's gallery never shows them by their id.
     */
    private readonly partsShown: () => boolean,
    /** Seals the galleries' keys in the database. */
    private readonly secrets: SecretBox,
  ) {}

  /** The SQL condition a photo (alias `p`, or the bare table) meets to be wanted online. */
  private wanted(alias = ''): string {
    const p = alias ? `${alias}.` : '';
    const parts = this.partsShown() ? '' : ` AND ${p}part_of IS NULL`;
    return `${p}visible = 1 AND ${p}processed = 1 AND ${p}missing = 0${parts}`;
  }

  publication(eventId: number): PublicationRow | undefined {
    return this.db.prepare<[number], PublicationRow>('SELECT * FROM publish_events WHERE event_id = ?').get(eventId);
  }

  publications(): PublicationRow[] {
    return this.db.prepare<[], PublicationRow>('SELECT * FROM publish_events ORDER BY requested_at').all();
  }

  /** Asks for the event to be online; its path, once drawn, is kept through a withdrawal. */
  requestPublish(eventId: number, token: string, at: number): PublicationRow {
    this.db
      .prepare(
        `INSERT INTO publish_events (event_id, token, state, requested_at, index_stale) VALUES (?, ?, 'publishing', ?, 1)
         ON CONFLICT(event_id) DO UPDATE SET state = 'publishing', requested_at = excluded.requested_at, index_stale = 1,
           expires_at = CASE WHEN expires_at <= excluded.requested_at THEN NULL ELSE expires_at END`,
      )
      .run(eventId, token, at);
    return this.publication(eventId) as PublicationRow;
  }

  requestWithdraw(eventId: number): void {
    this.db.prepare(`UPDATE publish_events SET state = 'withdrawing' WHERE event_id = ? AND state != 'withdrawn'`).run(eventId);
  }

  /** The event's files are gone online: no row of them is kept, so a new publication uploads all again. */
  markWithdrawn(eventId: number): void {
    this.db
      .transaction(() => {
        this.db.prepare(`DELETE FROM publish_files WHERE event_id = ?`).run(eventId);
        this.db
          .prepare(
            `UPDATE publish_events SET state = 'withdrawn', index_at = NULL, place = NULL, checked_at = NULL, zip = NULL WHERE event_id = ? AND state = 'withdrawing'`,
          )
          .run(eventId);
      })
      .immediate();
  }

  /** What guests should find online: shown photos of the event whose file is there. */
  wantedPhotos(eventId: number): PublishablePhoto[] {
    return this.db
      .prepare<[number], PublishablePhoto>(
        `SELECT id, stem, file, kind, taken_at, mtime, size, updated_at FROM photos
         WHERE event_id = ? AND ${this.wanted()} ORDER BY stem DESC`,
      )
      .all(eventId);
  }

  files(eventId: number): PublishFileRow[] {
    return this.db.prepare<[number], PublishFileRow>('SELECT * FROM publish_files WHERE event_id = ?').all(eventId);
  }

  /**
   * Brings the queue in line with the index, in one transaction: a new photo (or a new version of
   * one) gets a pending row; a version no longer wanted, online or not, is to be removed.
   */
  reconcile(eventId: number, wanted: readonly WantedFile[], at: number): void {
    this.db
      .transaction(() => {
        const rows = this.files(eventId);
        const have = new Set(rows.map((r) => `${r.photo_id}\u0000${r.version}`));
        const want = new Set(wanted.map((w) => `${w.photo_id}\u0000${w.version}`));
        const insert = this.db.prepare(
          `INSERT INTO publish_files (event_id, photo_id, version, names, state, updated_at) VALUES (?, ?, ?, ?, 'pending', ?)`,
        );
        const remove = this.db.prepare(
          `UPDATE publish_files SET state = 'removing', updated_at = ? WHERE event_id = ? AND photo_id = ? AND version = ?`,
        );
        let changed = false;
        for (const w of wanted) {
          if (have.has(`${w.photo_id}\u0000${w.version}`)) continue;
          insert.run(eventId, w.photo_id, w.version, JSON.stringify(w.names), at);
          changed = true;
        }
        for (const r of rows) {
          if (r.state === 'removing' || want.has(`${r.photo_id}\u0000${r.version}`)) continue;
          remove.run(at, eventId, r.photo_id, r.version);
          changed = true;
        }
        if (changed) this.db.prepare('UPDATE publish_events SET index_stale = 1 WHERE event_id = ?').run(eventId);
      })
      .immediate();
  }

  pending(eventId: number): PublishFileRow[] {
    return this.db
      .prepare<[number], PublishFileRow>(`SELECT * FROM publish_files WHERE event_id = ? AND state = 'pending' ORDER BY photo_id`)
      .all(eventId);
  }

  removing(eventId: number, limit: number): PublishFileRow[] {
    return this.db
      .prepare<[number, number], PublishFileRow>(`SELECT * FROM publish_files WHERE event_id = ? AND state = 'removing' LIMIT ?`)
      .all(eventId, limit);
  }

  /** The listing of the remote showed these files whole: every row of them online at once, and the page must list them. */
  markOnline(eventId: number, rows: readonly ConfirmedFile[], at: number): void {
    const stmt = this.db.prepare(
      `UPDATE publish_files SET state = 'online', updated_at = ?, sizes = ?, thumb_w = ?, thumb_h = ?
        WHERE event_id = ? AND photo_id = ? AND version = ? AND state = 'pending'`,
    );
    this.db
      .transaction(() => {
        for (const r of rows)
          stmt.run(at, JSON.stringify(r.sizes), r.thumb?.width ?? null, r.thumb?.height ?? null, eventId, r.photo_id, r.version);
        this.db.prepare('UPDATE publish_events SET index_stale = 1 WHERE event_id = ?').run(eventId);
      })
      .immediate();
  }

  /** Removed online: the rows go, unless the same version became wanted again meanwhile. */
  markRemoved(eventId: number, rows: readonly PublishFileRow[]): void {
    const stmt = this.db.prepare(`DELETE FROM publish_files WHERE event_id = ? AND photo_id = ? AND version = ? AND state = 'removing'`);
    this.db.transaction(() => rows.forEach((r) => stmt.run(eventId, r.photo_id, r.version)))();
  }

  /** Files online, newest first, for the event's page. */
  onlineFiles(eventId: number): (PublishFileRow & PublishablePhoto)[] {
    return this.db
      .prepare<[number], PublishFileRow & PublishablePhoto>(
        `SELECT f.*, p.id, p.stem, p.file, p.kind, p.taken_at, p.mtime, p.size, p.updated_at AS updated_at
         FROM publish_files f JOIN photos p ON p.id = f.photo_id
         WHERE f.event_id = ? AND f.state = 'online' ORDER BY p.stem DESC`,
      )
      .all(eventId);
  }

  /** The photo's own page, when its current files are online and guests may still be given it. */
  onlinePage(eventId: number, photoId: string): string | null {
    const row = this.db
      .prepare<[number, string], { names: string }>(
        `SELECT f.names FROM publish_files f JOIN photos p ON p.id = f.photo_id
          WHERE f.event_id = ? AND f.photo_id = ? AND f.state = 'online' AND ${this.wanted('p')} ORDER BY f.updated_at DESC LIMIT 1`,
      )
      .get(eventId, photoId);
    const page = row ? (JSON.parse(row.names) as string[])[2] : undefined;
    return page ?? null;
  }

  /** Clears the stale mark before the page is written; a change meanwhile sets it again. */
  takeIndexStale(eventId: number): void {
    this.db.prepare('UPDATE publish_events SET index_stale = 0 WHERE event_id = ?').run(eventId);
  }

  isIndexStale(eventId: number): boolean {
    return (this.publication(eventId)?.index_stale ?? 0) === 1;
  }

  markIndexStale(eventId: number): void {
    this.db.prepare('UPDATE publish_events SET index_stale = 1 WHERE event_id = ?').run(eventId);
  }

  setIndexWritten(eventId: number, at: number): void {
    this.db.prepare('UPDATE publish_events SET index_at = ? WHERE event_id = ?').run(at, eventId);
  }

  /**
   * Photos of the event online against those wanted. Only photos still wanted count: a photo
   * deleted at the booth leaves the total and the count at once ("51 / 50" cannot happen).
   */
  counts(eventId: number): Counts {
    const row = this.db
      .prepare<[number, number, number], Counts>(
        `SELECT
           (SELECT COUNT(DISTINCT f.photo_id) FROM publish_files f JOIN photos p ON p.id = f.photo_id
              WHERE f.event_id = ? AND f.state = 'online' AND p.event_id = ? AND ${this.wanted('p')}) AS online,
           (SELECT COUNT(*) FROM photos WHERE event_id = ? AND ${this.wanted()}) AS total`,
      )
      .get(eventId, eventId, eventId);
    return row ?? { online: 0, total: 0 };
  }

  /** The remote lacks these files: they go back to pending, and the page is written again. */
  requeue(eventId: number, rows: readonly PublishFileRow[]): void {
    const stmt = this.db.prepare(
      `UPDATE publish_files SET state = 'pending' WHERE event_id = ? AND photo_id = ? AND version = ? AND state = 'online'`,
    );
    this.db
      .transaction(() => {
        for (const r of rows) stmt.run(eventId, r.photo_id, r.version);
        this.db.prepare('UPDATE publish_events SET index_stale = 1 WHERE event_id = ?').run(eventId);
      })
      .immediate();
  }

  setChecked(eventId: number, at: number): void {
    this.db.prepare('UPDATE publish_events SET checked_at = ? WHERE event_id = ?').run(at, eventId);
  }

  setPlace(eventId: number, place: string): void {
    this.db.prepare('UPDATE publish_events SET place = ? WHERE event_id = ?').run(place, eventId);
  }

  /**
   * The destination or the booth name changed: the event starts again at the new place (every
   * file pending, rclone skips none since none is there) and its old copies are to be removed.
   */
  move(pub: PublicationRow, place: string, removable: boolean, at: number): void {
    this.db
      .transaction(() => {
        if (pub.place !== null)
          this.db
            .prepare('INSERT INTO publish_leftovers (event_id, place, token, removable, created_at) VALUES (?, ?, ?, ?, ?)')
            .run(pub.event_id, pub.place, pub.token, removable ? 1 : 0, at);
        this.db.prepare(`DELETE FROM publish_files WHERE event_id = ?`).run(pub.event_id);
        this.db
          .prepare(
            'UPDATE publish_events SET place = ?, index_stale = 1, index_at = NULL, checked_at = NULL, zip = NULL WHERE event_id = ?',
          )
          .run(place, pub.event_id);
      })
      .immediate();
  }

  leftovers(): LeftoverRow[] {
    return this.db.prepare<[], LeftoverRow>('SELECT * FROM publish_leftovers ORDER BY id').all();
  }

  setLeftoverRemovable(id: number, removable: boolean): void {
    this.db.prepare('UPDATE publish_leftovers SET removable = ? WHERE id = ?').run(removable ? 1 : 0, id);
  }

  /** Events published or being withdrawn: the queue has something to keep in line, toggle or not. */
  hasActive(): boolean {
    return this.db.prepare(`SELECT 1 FROM publish_events WHERE state != 'withdrawn' LIMIT 1`).get() !== undefined;
  }

  dropLeftover(id: number): boolean {
    return this.db.prepare('DELETE FROM publish_leftovers WHERE id = ?').run(id).changes > 0;
  }

  /** The day the event leaves the remote; its page says so, so it is written again. */
  setExpiry(eventId: number, at: number | null): void {
    this.db.prepare('UPDATE publish_events SET expires_at = ?, index_stale = 1 WHERE event_id = ?').run(at, eventId);
  }

  /** Events whose day has come: they are withdrawn like any other. */
  expire(now: number): number {
    return this.db
      .prepare(`UPDATE publish_events SET state = 'withdrawing' WHERE state = 'publishing' AND expires_at IS NOT NULL AND expires_at <= ?`)
      .run(now).changes;
  }

  /**
   * The event's gallery password, as its salt and derived key; undefined: the gallery is open. The
   * key is stored sealed (SecretBox); one that cannot be opened (the secrets folder lost) comes back
   * empty, which seals nothing: the queue then fails on the event, and nothing of it goes out in the clear.
   */
  lock(eventId: number): EventLock | undefined {
    const row = this.db.prepare<[number], EventLock>('SELECT salt, iterations, key FROM publish_locks WHERE event_id = ?').get(eventId);
    if (!row) return undefined;
    const key = SecretBox.isSealed(row.key) ? (this.secrets.open(lockPurpose(eventId), row.key) ?? Buffer.alloc(0)) : row.key;
    return { ...row, key };
  }

  /** A new password (or none): the page is written again, and every file's version changes with it. */
  setLock(eventId: number, lock: EventLock | null, at: number): void {
    this.db
      .transaction(() => {
        if (lock === null) this.db.prepare('DELETE FROM publish_locks WHERE event_id = ?').run(eventId);
        else
          this.db
            .prepare(
              `INSERT INTO publish_locks (event_id, salt, iterations, key, set_at) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT(event_id) DO UPDATE SET salt = excluded.salt, iterations = excluded.iterations, key = excluded.key, set_at = excluded.set_at`,
            )
            .run(eventId, lock.salt, lock.iterations, this.secrets.seal(lockPurpose(eventId), lock.key), at);
        // The ZIP was sealed with the old key, or not at all: the page stops offering it, the check removes it.
        this.db.prepare('UPDATE publish_events SET index_stale = 1, zip = NULL WHERE event_id = ?').run(eventId);
      })
      .immediate();
  }

  /** The settings of every page changed (colours, logo, language): every event's page is written again. */
  markAllIndexStale(): void {
    this.db.prepare(`UPDATE publish_events SET index_stale = 1 WHERE state = 'publishing'`).run();
  }

  zip(eventId: number): ZipState | null {
    const raw = this.publication(eventId)?.zip;
    return raw ? (JSON.parse(raw) as ZipState) : null;
  }

  /** A new ZIP (or none, or one found missing online): the page offers what is there (written again unless `pageChanges` is false). */
  setZip(eventId: number, state: ZipState | null, pageChanges = true): void {
    this.db
      .prepare(`UPDATE publish_events SET zip = ?, index_stale = CASE WHEN ? THEN 1 ELSE index_stale END WHERE event_id = ?`)
      .run(state === null ? null : JSON.stringify(state), pageChanges ? 1 : 0, eventId);
  }

  hasWork(): boolean {
    const row = this.db
      .prepare<[], { n: number }>(
        `SELECT COUNT(*) AS n FROM publish_events e WHERE e.state = 'withdrawing' OR (e.state = 'publishing' AND (e.index_stale = 1
           OR EXISTS (SELECT 1 FROM publish_files f WHERE f.event_id = e.event_id AND f.state != 'online')))`,
      )
      .get();
    const leftovers = this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM publish_leftovers WHERE removable = 1').get();
    return (row?.n ?? 0) + (leftovers?.n ?? 0) > 0;
  }
}
