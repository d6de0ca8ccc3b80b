import type { Migration } from '../migrator.js';

export const mediaKinds: Migration = {
  version: 5,
  name: 'media-kinds',
  // Not compatible: older code would index animations as photos (kind's default), printable.
  up(db) {
    // Rows indexed before this were all stills; animations and videos were skipped then.
    db.exec(`
      ALTER TABLE photos ADD COLUMN kind TEXT NOT NULL DEFAULT 'photo'
        CHECK (kind IN ('photo', 'collage', 'animation', 'video'));
      UPDATE photos SET kind = 'animation' WHERE lower(file) LIKE '%.gif';
      CREATE INDEX photos_unprocessed ON photos (processed) WHERE processed = 0;
      -- The operator's optional welcome line for guests, set with the event.
      ALTER TABLE events ADD COLUMN welcome TEXT;
    `);
  },
};
