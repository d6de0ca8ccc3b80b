import { SecretBox } from '../core/secrets/secret-box.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../db/database.js';
import { lockPurpose } from './publish.repository.js';

const SECRET_KEY = 'publish.secret';
const SECRET_PURPOSE = 'publish.destination.password';

/**
 * Secrets an earlier version stored in clear (the destination's password, the galleries' derived
 * keys) are sealed once, at start, in one transaction. SQLite leaves what a row held in the page
 * it was rewritten in and in the WAL: the rewrite runs with `secure_delete` (freed content zeroed),
 * the WAL is then checkpointed and truncated, and the file is vacuumed if it has free pages (which
 * may hold older copies). Once done, nothing in the database opens without the secrets folder.
 */
export function sealLegacySecrets(db: Db, box: SecretBox, log: Logger): void {
  const locks = db
    .prepare<[], { event_id: number; key: Buffer }>('SELECT event_id, key FROM publish_locks')
    .all()
    .filter((row) => !SecretBox.isSealed(row.key));
  const raw = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(SECRET_KEY)?.value;
  const stored = raw === undefined ? undefined : (JSON.parse(raw) as unknown);
  const password =
    stored !== null && typeof stored === 'object' && stored !== undefined && 'password' in stored && typeof stored.password === 'string'
      ? stored.password
      : undefined;
  if (locks.length === 0 && password === undefined) return;
  const before = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  try {
    db.transaction(() => {
      const update = db.prepare('UPDATE publish_locks SET key = ? WHERE event_id = ?');
      for (const row of locks) update.run(box.seal(lockPurpose(row.event_id), row.key), row.event_id);
      if (password !== undefined)
        db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(
          JSON.stringify({ sealed: box.sealText(SECRET_PURPOSE, password) }),
          SECRET_KEY,
        );
    })();
    log.info(
      `Secrets: ${locks.length} gallery key(s)${password === undefined ? '' : ' and the destination’s password'} sealed in the database`,
    );
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
      if ((db.pragma('freelist_count', { simple: true }) as number) > 0) db.exec('VACUUM');
    } catch (err) {
      // A full card: the sealing stands; the old pages are overwritten as SQLite reuses them.
      log.warn(`Secrets: the database's free pages could not be wiped after sealing (${err instanceof Error ? err.message : String(err)})`);
    }
  } finally {
    db.pragma(`secure_delete = ${before ? 'ON' : 'OFF'}`);
  }
}
