import type { MediaKind } from '../contract/photos.contract.js';
import type { Db } from '../db/database.js';

export interface PhotoRow {
  id: string;
  stem: string;
  file: string;
  kind: MediaKind;
  event_id: number | null;
  taken_at: number;
  created_at: number | null;
  /** The capture app's updated_at, ms; part of the photo's media version. */
  updated_at: number | null;
  mtime: number;
  size: number;
  processed: number;
  visible: number;
  missing: number;
  printed_copies: number;
  indexed_at: number;
  /**
   * The galleries' order, newest last: the stem (capture time) for photos found in the folder,
   * the order of arrival for photos announced live. Set once, when the row is first written.
   */
  sort_key: string;
  /**
   * The collage (or animation) this single capture was taken for: its id, or `pending:…` while
   * the capture app has announced the parts and not yet the collage. Null for anything else.
   */
  part_of: string | null;
}

/** A row to write: without a sort key, the photo sorts by its capture time (its stem). */
export type NewPhotoRow = Omit<PhotoRow, 'sort_key' | 'part_of'> & { sort_key?: string; part_of?: string | null };

const withKey = (row: NewPhotoRow): PhotoRow => ({ ...row, sort_key: row.sort_key ?? row.stem, part_of: row.part_of ?? null });

/** Whether a part_of value names its collage (not a part still waiting for it). */
export const PENDING_PART = 'pending:';

/** How collage parts are left out of a list: none, those grouped under a known collage, or all. */
export type PartsFilter = 'none' | 'grouped' | 'all';

/** SQL condition that leaves parts out, for `filter`, on the table alias `p`. */
function partsCondition(filter: PartsFilter, alias = 'p'): string | undefined {
  if (filter === 'all') return `${alias}.part_of IS NULL`;
  if (filter === 'grouped') return `(${alias}.part_of IS NULL OR ${alias}.part_of LIKE '${PENDING_PART}%')`;
  return undefined;
}

export interface PhotoWithEvent extends PhotoRow {
  event_slug: string | null;
  event_name: string | null;
}

export interface PhotoQuery {
  eventId?: number;
  /** mtime bounds, inclusive, in ms. */
  from?: number;
  to?: number;
  printed?: boolean;
  /** Only items guests may see: their processed file is there and was never found gone. */
  processedOnly?: boolean;
  /** Collage parts left out (they come with their collage, or not at all). */
  parts?: PartsFilter;
  /** Sort keys below this one (newest first). */
  before?: string;
  limit: number;
}

export interface FileState {
  id: string;
  stem: string;
  mtime: number;
  size: number;
  updated_at: number | null;
  processed: number;
  missing: number;
}

/** A photo guests may see: made, not lost. */
const SHOWN = 'visible = 1 AND processed = 1 AND missing = 0';

const SELECT = `SELECT p.*, e.slug AS event_slug, e.name AS event_name FROM photos p LEFT JOIN events e ON e.id = p.event_id`;

/** The photo index. All photo SQL lives here. */
export class PhotoRepository {
  private readonly upsertStmt;
  private readonly changesStmt;

  constructor(private readonly db: Db) {
    this.changesStmt = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    this.upsertStmt = db.prepare(
      `INSERT INTO photos (id, stem, file, kind, event_id, taken_at, created_at, updated_at, mtime, size, processed, visible, missing, printed_copies, indexed_at, sort_key, part_of)
       VALUES (@id, @stem, @file, @kind, @event_id, @taken_at, @created_at, @updated_at, @mtime, @size, @processed, @visible, @missing, @printed_copies, @indexed_at, @sort_key, @part_of)
       ON CONFLICT(id) DO UPDATE SET stem = excluded.stem, file = excluded.file, kind = excluded.kind, created_at = COALESCE(excluded.created_at, photos.created_at),
         updated_at = COALESCE(excluded.updated_at, photos.updated_at),
         mtime = excluded.mtime, size = excluded.size, processed = excluded.processed, visible = excluded.visible,
         missing = excluded.missing, indexed_at = excluded.indexed_at, part_of = COALESCE(excluded.part_of, photos.part_of)`,
    );
  }

  upsert(row: NewPhotoRow): void {
    this.upsertStmt.run(withKey(row));
  }

  upsertMany(rows: readonly NewPhotoRow[]): void {
    this.db.transaction(() => rows.forEach((row) => this.upsertStmt.run(withKey(row))))();
  }

  find(id: string): PhotoWithEvent | undefined {
    return this.db.prepare<[string], PhotoWithEvent>(`${SELECT} WHERE p.id = ?`).get(id);
  }

  findByStem(stem: string): PhotoRow | undefined {
    return this.db.prepare<[string], PhotoRow>('SELECT * FROM photos WHERE stem = ?').get(stem);
  }

  query(q: PhotoQuery): PhotoWithEvent[] {
    const where = ['p.visible = 1'];
    const params: Record<string, unknown> = { limit: q.limit };
    if (q.eventId !== undefined) {
      where.push('p.event_id = @eventId');
      params.eventId = q.eventId;
    }
    if (q.from !== undefined) {
      where.push('p.mtime >= @from');
      params.from = q.from;
    }
    if (q.to !== undefined) {
      where.push('p.mtime <= @to');
      params.to = q.to;
    }
    if (q.processedOnly) where.push('p.processed = 1 AND p.missing = 0');
    const parts = partsCondition(q.parts ?? 'none');
    if (parts) where.push(parts);
    if (q.printed !== undefined) where.push(q.printed ? 'p.printed_copies > 0' : 'p.printed_copies = 0');
    if (q.before !== undefined) {
      where.push('p.sort_key < @before');
      params.before = q.before;
    }
    return this.db
      .prepare<Record<string, unknown>, PhotoWithEvent>(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY p.sort_key DESC LIMIT @limit`)
      .all(params);
  }

  /** Whether fewer than `limit` photos a guest sees come before this one in the event's gallery. */
  amongNewestShown(eventId: number, sortKey: string, limit: number, parts: PartsFilter = 'none'): boolean {
    const row = this.db
      .prepare<[number, string, number], { n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM photos p WHERE event_id = ? AND ${SHOWN} AND ${partsCondition(parts) ?? '1'} AND sort_key > ? LIMIT ?)`,
      )
      .get(eventId, sortKey, limit);
    return (row?.n ?? limit) < limit;
  }

  /**
   * The sort key of a photo arriving now in an event: its stem, unless the event already holds
   * a key at or after it (the booth's clock was set back): then just after the last one.
   */
  arrivalKey(eventId: number, stem: string): string {
    const last = this.db
      .prepare<[number], { k: string }>('SELECT sort_key AS k FROM photos WHERE event_id = ? ORDER BY sort_key DESC LIMIT 1')
      .get(eventId)?.k;
    if (last === undefined || stem > last) return stem;
    const [base = last, count = '0'] = last.split('~');
    return `${base}~${String(Number(count) + 1).padStart(6, '0')}`;
  }

  /** How many photos of the same event were taken in the same second, before this one. */
  rankInSecond(photo: Pick<PhotoRow, 'event_id' | 'stem'>): number {
    const second = photo.stem.slice(0, 15);
    return (
      this.db
        .prepare<[number | null, string, string], { n: number }>(
          'SELECT COUNT(*) AS n FROM photos WHERE event_id IS ? AND stem >= ? AND stem < ? AND visible = 1',
        )
        .get(photo.event_id, second, photo.stem)?.n ?? 0
    );
  }

  /** Every visible photo of an event, oldest first, for an export. */
  ofEvent(eventId: number): PhotoRow[] {
    return this.db.prepare<[number], PhotoRow>('SELECT * FROM photos WHERE event_id = ? AND visible = 1 ORDER BY stem').all(eventId);
  }

  fileStates(): FileState[] {
    return this.db.prepare<[], FileState>('SELECT id, stem, mtime, size, updated_at, processed, missing FROM photos').all();
  }

  markMissing(stems: readonly string[], missing: boolean): void {
    const stmt = this.db.prepare('UPDATE photos SET missing = ? WHERE stem = ?');
    this.db.transaction(() => stems.forEach((stem) => stmt.run(missing ? 1 : 0, stem)))();
  }

  /** The processed file is there (again, or at last): it has been made, and is not missing. */
  updateFile(stem: string, mtime: number, size: number, at: number): void {
    this.db
      .prepare('UPDATE photos SET mtime = ?, size = ?, processed = 1, missing = 0, indexed_at = ? WHERE stem = ?')
      .run(mtime, size, at, stem);
  }

  /** Items whose processed file the capture app has not written yet. */
  unprocessed(): { id: string; stem: string; file: string }[] {
    return this.db.prepare<[], { id: string; stem: string; file: string }>('SELECT id, stem, file FROM photos WHERE processed = 0').all();
  }

  /** Items of an event guests see, for their photo count. */
  countShown(eventId: number, parts: PartsFilter = 'none'): number {
    return (
      this.db
        .prepare<[number], { n: number }>(
          `SELECT COUNT(*) AS n FROM photos p WHERE event_id = ? AND ${SHOWN} AND ${partsCondition(parts) ?? '1'}`,
        )
        .get(eventId)?.n ?? 0
    );
  }

  /** The parts grouped under each of these collages, oldest first. */
  partsOf(collageIds: readonly string[]): PhotoWithEvent[] {
    if (collageIds.length === 0) return [];
    return this.db
      .prepare<string[], PhotoWithEvent>(
        `${SELECT} WHERE p.visible = 1 AND p.part_of IN (${collageIds.map(() => '?').join(',')}) ORDER BY p.stem`,
      )
      .all(...collageIds);
  }

  /** Makes these photos parts of a collage (or of none, with null). */
  setPartOf(ids: readonly string[], partOf: string | null): void {
    const stmt = this.db.prepare('UPDATE photos SET part_of = ? WHERE id = ?');
    this.db.transaction(() => ids.forEach((id) => stmt.run(partOf, id)))();
  }

  /** Parts still waiting for a collage that will not come (other than `keep`); their ids. */
  pendingParts(keep?: string): string[] {
    return this.db
      .prepare<[string, string], { id: string }>(`SELECT id FROM photos WHERE part_of LIKE ? AND part_of IS NOT ?`)
      .all(`${PENDING_PART}%`, keep ?? '')
      .map((r) => r.id);
  }

  /** Rows taken between two times (ms), oldest first, for matching a collage with its parts. */
  takenBetween(from: number, to: number): PhotoRow[] {
    return this.db
      .prepare<[number, number], PhotoRow>('SELECT * FROM photos WHERE taken_at >= ? AND taken_at <= ? ORDER BY stem')
      .all(from, to);
  }

  /** Every id in the index, with whether guests could see it, for a reconciliation with the capture app's list. */
  allIds(): { id: string; indexed_at: number }[] {
    return this.db.prepare<[], { id: string; indexed_at: number }>('SELECT id, indexed_at FROM photos').all();
  }

  setPrinted(id: string, copies: number): void {
    this.db.prepare('UPDATE photos SET printed_copies = ? WHERE id = ?').run(copies, id);
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM photos WHERE id = ?').run(id).changes > 0;
  }

  /**
   * Rows changed through this connection since it opened (SQLite's total_changes()): every write
   * to the index, whoever makes it, moves it, so it stamps what a cached read depends on.
   */
  changeCount(): number {
    return this.changesStmt.get()?.n ?? 0;
  }

  count(): number {
    return this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM photos').get()?.n ?? 0;
  }

  /** Visible photos of an event counted per hour of their capture time (hour = ms / 3 600 000). */
  hourlyCounts(eventId: number): { hour: number; count: number }[] {
    return this.db
      .prepare<[number], { hour: number; count: number }>(
        `SELECT CAST(taken_at / 3600000 AS INTEGER) AS hour, COUNT(*) AS count
         FROM photos WHERE event_id = ? AND visible = 1 GROUP BY hour ORDER BY hour`,
      )
      .all(eventId);
  }

  /** The mean size of the processed file of the latest photos, null before the first one. */
  recentAverageSize(sample = 50): number | null {
    const row = this.db
      .prepare<[number], { avg: number | null }>(
        'SELECT AVG(size) AS avg FROM (SELECT size FROM photos WHERE size > 0 ORDER BY taken_at DESC LIMIT ?)',
      )
      .get(sample);
    return row?.avg ?? null;
  }
}
