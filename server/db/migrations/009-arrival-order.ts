import type { Migration } from '../migrator.js';

export const arrivalOrder: Migration = {
  version: 9,
  name: 'arrival-order',
  // Not compatible: photos older code indexes get an empty sort_key and sink to the galleries' end.
  up(db) {
    // The order of the galleries: the capture time for photos found in the folder, the order
    // of arrival for photos announced live (a booth whose clock was set back names a new photo
    // earlier than the last ones; it still comes first).
    db.exec(`
      ALTER TABLE photos ADD COLUMN sort_key TEXT NOT NULL DEFAULT '';
      UPDATE photos SET sort_key = stem;
      CREATE INDEX photos_event_sort ON photos (event_id, sort_key DESC);
      CREATE INDEX photos_sort ON photos (sort_key DESC);
    `);
  },
};
