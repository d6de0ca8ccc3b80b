import type { Db } from '../db/database.js';

/** Key/value settings stored as JSON text; callers own the shape of each key. */
export class SettingsRepository {
  private readonly getStmt;
  private readonly setStmt;
  private readonly deleteStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.setStmt = db.prepare(
      `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM settings WHERE key = ?');
  }

  get(key: string): unknown {
    const row = this.getStmt.get(key);
    return row ? (JSON.parse(row.value) as unknown) : undefined;
  }

  set(key: string, value: unknown): void {
    this.setStmt.run(key, JSON.stringify(value), new Date().toISOString());
  }

  delete(key: string): void {
    this.deleteStmt.run(key);
  }
}
