import type { Migration } from '../migrator.js';

export const collageParts: Migration = {
  version: 10,
  name: 'collage-parts',
  up(db) {
    // part_of: the id of the collage (or animation) a single capture was taken for, as the
    // capture app shows its parts in the gallery (show_individual_captures_in_gallery).
    // Animations in WebP or AVIF were indexed as photos before their media type decided: the
    // capture app writes its stills as JPEG, so such a file is an animation.
    db.exec(`
      ALTER TABLE photos ADD COLUMN part_of TEXT;
      CREATE INDEX photos_part_of ON photos (part_of) WHERE part_of IS NOT NULL;
      UPDATE photos SET kind = 'animation' WHERE kind = 'photo' AND (lower(file) LIKE '%.webp' OR lower(file) LIKE '%.avif');
    `);
  },
};
