import type { Migration } from '../migrator.js';

export const publishSizes: Migration = {
  version: 14,
  name: 'publish-sizes',
  // New columns only: older code reads none of them.
  backwardCompatible: true,
  up(db) {
    db.exec(`
      -- The size of each file a row lists (a JSON array in the order of names), as it was laid out
      -- for rclone: the comparison with the remote finds a file cut short, not only a missing one.
      -- Null for rows sent before: their names alone are compared.
      ALTER TABLE publish_files ADD COLUMN sizes TEXT;
      -- The thumbnail's own width and height: the published page draws each tile in its photo's proportions.
      ALTER TABLE publish_files ADD COLUMN thumb_w INTEGER;
      ALTER TABLE publish_files ADD COLUMN thumb_h INTEGER;
    `);
  },
};
