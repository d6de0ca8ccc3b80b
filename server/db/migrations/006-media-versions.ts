import type { Migration } from '../migrator.js';

export const mediaVersions: Migration = {
  version: 6,
  name: 'media-versions',
  // A nullable column older code leaves empty; null already means "never updated".
  backwardCompatible: true,
  up(db) {
    // The capture app's own updated_at (ms): a filter applied at the booth bumps it, and every
    // copy Boothdeck made of the photo (thumbnail, poster, gallery page) must be made again.
    db.exec(`ALTER TABLE photos ADD COLUMN updated_at INTEGER;`);
  },
};
