import type { Db } from '../db/database.js';

export interface EventRow {
  id: number;
  slug: string;
  name: string;
  welcome: string | null;
  created_at: number;
  archived_at: number | null;
}

export interface EventStats {
  event_id: number;
  photo_count: number;
  first_taken: number | null;
  last_taken: number | null;
}

export interface HistoryRow {
  event_id: number;
  at: number;
  kind: string;
  detail: string;
}

export class EventRepository {
  constructor(private readonly db: Db) {}

  list(): EventRow[] {
    return this.db.prepare<[], EventRow>('SELECT * FROM events ORDER BY created_at DESC, id DESC').all();
  }

  findBySlug(slug: string): EventRow | undefined {
    return this.db.prepare<[string], EventRow>('SELECT * FROM events WHERE slug = ?').get(slug);
  }

  current(): EventRow | undefined {
    return this.db.prepare<[], EventRow>('SELECT * FROM events WHERE archived_at IS NULL').get();
  }

  /** The event that was current at `time`: created before it, not archived yet at that moment. */
  idAt(time: number): number | null {
    const row = this.db
      .prepare<[number, number], { id: number }>(
        'SELECT id FROM events WHERE created_at <= ? AND (archived_at IS NULL OR archived_at > ?) ORDER BY created_at DESC LIMIT 1',
      )
      .get(time, time);
    return row?.id ?? null;
  }

  stats(): EventStats[] {
    return this.db
      .prepare<[], EventStats>(
        `SELECT event_id, COUNT(*) AS photo_count, MIN(taken_at) AS first_taken, MAX(taken_at) AS last_taken
         FROM photos WHERE event_id IS NOT NULL AND visible = 1 GROUP BY event_id`,
      )
      .all();
  }

  history(): HistoryRow[] {
    return this.db.prepare<[], HistoryRow>('SELECT event_id, at, kind, detail FROM event_history ORDER BY at, id').all();
  }

  addHistory(entry: HistoryRow): void {
    this.db.prepare('INSERT INTO event_history (event_id, at, kind, detail) VALUES (@event_id, @at, @kind, @detail)').run(entry);
  }

  /**
   * Archives every open event and opens the new one, in one transaction: there is never a
   * moment with two current events, nor one without the new event if it was created.
   */
  createCurrent(slug: string, name: string, at: number, welcome: string | null = null): EventRow {
    // IMMEDIATE: the write lock is taken before the open events are read, so two connections
    // creating events at once run one after the other instead of both archiving the same one.
    return this.db
      .transaction(() => {
        const open = this.db.prepare<[], EventRow>('SELECT * FROM events WHERE archived_at IS NULL').all();
        for (const event of open) {
          this.db.prepare('UPDATE events SET archived_at = ? WHERE id = ?').run(at, event.id);
          this.addHistory({ event_id: event.id, at, kind: 'archived', detail: `Remplacé par « ${name} »` });
        }
        const info = this.db
          .prepare('INSERT INTO events (slug, name, welcome, created_at) VALUES (?, ?, ?, ?)')
          .run(slug, name, welcome, at);
        const id = Number(info.lastInsertRowid);
        this.addHistory({ event_id: id, at, kind: 'created', detail: '' });
        return { id, slug, name, welcome, created_at: at, archived_at: null };
      })
      .immediate();
  }

  /**
   * Makes an archived event current again: the open one is archived first (the index allows only
   * one open event), then this one reopened, in one transaction. Undefined for an unknown slug.
   */
  reopen(slug: string, at: number): EventRow | undefined {
    return this.db
      .transaction(() => {
        const row = this.db.prepare<[string], EventRow>('SELECT * FROM events WHERE slug = ?').get(slug);
        if (!row || row.archived_at === null) return row;
        const open = this.db.prepare<[], EventRow>('SELECT * FROM events WHERE archived_at IS NULL').all();
        for (const event of open) {
          this.db.prepare('UPDATE events SET archived_at = ? WHERE id = ?').run(at, event.id);
          this.addHistory({ event_id: event.id, at, kind: 'archived', detail: `Remplacé par « ${row.name} »` });
        }
        this.db.prepare('UPDATE events SET archived_at = NULL WHERE id = ?').run(row.id);
        this.addHistory({ event_id: row.id, at, kind: 'reopened', detail: '' });
        return { ...row, archived_at: null };
      })
      .immediate();
  }
}
