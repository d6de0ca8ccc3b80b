import type { MediaKind } from '../contract/photos.contract.js';
import type { Db } from '../db/database.js';

export type PublicationState = 'publishing' | 'withdrawing' | 'withdrawn';
export type FileState = 'pending' | 'online' | 'removing';

export interface PublicationRow {
  event_id: number;
  token: string;
  state: PublicationState;
  requested_at: number;
  index_stale: number;
  index_at: number | null;
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
export class PublishRepository {
  constructor(private readonly db: Db) {}

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
         ON CONFLICT(event_id) DO UPDATE SET state = 'publishing', requested_at = excluded.requested_at, index_stale = 1`,
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
          .prepare(`UPDATE publish_events SET state = 'withdrawn', index_at = NULL WHERE event_id = ? AND state = 'withdrawing'`)
          .run(eventId);
      })
      .immediate();
  }

  /** What guests should find online: shown photos of the event whose file is there. */
  wantedPhotos(eventId: number): PublishablePhoto[] {
    return this.db
      .prepare<[number], PublishablePhoto>(
        `SELECT id, stem, file, kind, taken_at, mtime, size, updated_at FROM photos
         WHERE event_id = ? AND visible = 1 AND processed = 1 AND missing = 0 ORDER BY stem DESC`,
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

  /** The batch is online: every row of it at once, and the page must list them. */
  markOnline(eventId: number, rows: readonly PublishFileRow[], at: number): void {
    const stmt = this.db.prepare(
      `UPDATE publish_files SET state = 'online', updated_at = ? WHERE event_id = ? AND photo_id = ? AND version = ? AND state = 'pending'`,
    );
    this.db
      .transaction(() => {
        for (const r of rows) stmt.run(at, eventId, r.photo_id, r.version);
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

  /** Photos of the event online (every file of their current version) against those wanted. */
  counts(eventId: number): Counts {
    const row = this.db
      .prepare<[number, number], Counts>(
        `SELECT
           (SELECT COUNT(DISTINCT photo_id) FROM publish_files WHERE event_id = ? AND state = 'online') AS online,
           (SELECT COUNT(*) FROM photos WHERE event_id = ? AND visible = 1 AND processed = 1 AND missing = 0) AS total`,
      )
      .get(eventId, eventId);
    return row ?? { online: 0, total: 0 };
  }

  hasWork(): boolean {
    const row = this.db
      .prepare<[], { n: number }>(
        `SELECT COUNT(*) AS n FROM publish_events e WHERE e.state = 'withdrawing' OR (e.state = 'publishing' AND (e.index_stale = 1
           OR EXISTS (SELECT 1 FROM publish_files f WHERE f.event_id = e.event_id AND f.state != 'online')))`,
      )
      .get();
    return (row?.n ?? 0) > 0;
  }
}
