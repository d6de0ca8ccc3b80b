import type { Migration } from '../migrator.js';

export const publishPlaces: Migration = {
  version: 11,
  name: 'publish-places',
  up(db) {
    db.exec(`
      -- Where the event's files were last sent (the destination and the booth name, as JSON): a
      -- change of either republishes the event at the new place and leaves the old one to remove.
      ALTER TABLE publish_events ADD COLUMN place TEXT;
      -- The day the event leaves the remote (ms, local midnight), and the last comparison with it.
      ALTER TABLE publish_events ADD COLUMN expires_at INTEGER;
      ALTER TABLE publish_events ADD COLUMN checked_at INTEGER;
      -- Copies of events at a place the booth no longer publishes to: removed when the booth can
      -- still reach it, otherwise listed for the owner to remove by hand.
      CREATE TABLE publish_leftovers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        place TEXT NOT NULL,
        token TEXT NOT NULL,
        removable INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      -- Every photo now has its own page, p/<stem>-<version>.html, next to its files: rows
      -- online get its name, and the next comparison with the remote sends the pages missing.
      UPDATE publish_files SET names = json_insert(names, '$[#]',
        'p/' || substr(json_extract(names, '$[1]'), 8, length(json_extract(names, '$[1]')) - 12) || '.html')
        WHERE json_array_length(names) = 2;
    `);
  },
};
