import type { Db } from '../db/database.js';

export interface SessionRow {
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  insert(row: SessionRow): void {
    this.db
      .prepare(
        'INSERT INTO admin_sessions (token_hash, created_at, last_seen_at, expires_at) VALUES (@token_hash, @created_at, @last_seen_at, @expires_at)',
      )
      .run(row);
  }

  find(tokenHash: string): SessionRow | undefined {
    return this.db.prepare<[string], SessionRow>('SELECT * FROM admin_sessions WHERE token_hash = ?').get(tokenHash);
  }

  touch(tokenHash: string, at: number): void {
    this.db.prepare('UPDATE admin_sessions SET last_seen_at = ? WHERE token_hash = ?').run(at, tokenHash);
  }

  delete(tokenHash: string): void {
    this.db.prepare('DELETE FROM admin_sessions WHERE token_hash = ?').run(tokenHash);
  }

  deleteAll(): void {
    this.db.prepare('DELETE FROM admin_sessions').run();
  }

  deleteAllExcept(tokenHash: string): void {
    this.db.prepare('DELETE FROM admin_sessions WHERE token_hash <> ?').run(tokenHash);
  }

  deleteExpired(now: number, idleBefore: number): void {
    this.db.prepare('DELETE FROM admin_sessions WHERE expires_at <= ? OR last_seen_at <= ?').run(now, idleBefore);
  }
}
