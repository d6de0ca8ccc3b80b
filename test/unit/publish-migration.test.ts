import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../server/db/migrator.js';
import { migrations } from '../../server/db/migrations/index.js';

describe('migration 011 (publishing places)', () => {
  it('gives rows already online the name of their photo page, and leaves the queue as it was', () => {
    const db = new Database(':memory:');
    runMigrations(db, migrations.slice(0, 10));
    // Rows as a booth has them; the events they belong to are not the point here.
    db.pragma('foreign_keys = OFF');
    db.prepare(
      `INSERT INTO publish_events (event_id, token, state, requested_at, index_stale) VALUES (1, 'tok', 'publishing', 1, 0)`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO publish_files (event_id, photo_id, version, names, state, updated_at) VALUES (1, ?, 'v', ?, ?, 1)`,
    );
    insert.run('a', JSON.stringify(['media/20261126-101010-1-abcd.jpg', 'thumbs/20261126-101010-1-abcd.webp']), 'online');
    insert.run('b', JSON.stringify(['media/x-ef.mp4', 'thumbs/x-ef.webp']), 'removing');
    runMigrations(db, migrations);
    const rows = db.prepare('SELECT photo_id, names, state FROM publish_files ORDER BY photo_id').all() as {
      names: string;
      state: string;
    }[];
    expect(rows.map((r) => [JSON.parse(r.names), r.state])).toEqual([
      [['media/20261126-101010-1-abcd.jpg', 'thumbs/20261126-101010-1-abcd.webp', 'p/20261126-101010-1-abcd.html'], 'online'],
      [['media/x-ef.mp4', 'thumbs/x-ef.webp', 'p/x-ef.html'], 'removing'],
    ]);
    expect(db.prepare('SELECT place, expires_at, checked_at FROM publish_events').get()).toEqual({
      place: null,
      expires_at: null,
      checked_at: null,
    });
  });
});
