import type { Migration } from '../migrator.js';

export const printAddresses: Migration = {
  version: 7,
  name: 'print-addresses',
  // A nullable column: jobs older code queues just carry no address (counted by session only).
  backwardCompatible: true,
  up(db) {
    // The client address a guest's job came from: the copies one phone may print per event are
    // counted from the jobs themselves, so clearing cookies or a private tab buys nothing.
    db.exec(`
      ALTER TABLE print_jobs ADD COLUMN client_address TEXT;
      CREATE INDEX print_jobs_address ON print_jobs (client_address, event_id) WHERE client_address IS NOT NULL;
    `);
  },
};
