import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { EventRow } from '../events/event.repository.js';
import type { ExportEntry } from '../events/export-zip.js';
import { downloadNames } from './publish-index.js';
import { sealedName } from './publish-lock.js';
import type { PublishWork } from './publish-tasks.js';
import type { PublishSources } from './publish-files.js';
import type { PublicationRow, PublishRepository } from './publish.repository.js';
import type { PublishTarget } from './publish-destination.js';
import type { RclonePort } from './rclone.port.js';

/**
 * The most a "Tout télécharger" ZIP holds (the photos' full files, stored as they are): it is laid
 * out on the booth's card before it is sent, and a protected one is opened whole in the guest's
 * browser memory. An event past it offers its photos one by one only.
 */
export const MAX_ZIP_BYTES = 500 * 1024 * 1024;

/** The event's ZIP as the queue remembers it; `name` null: the photos are past the cap, no ZIP. */
export interface ZipState {
  /** What it holds: a hash of the photos' versions (and the password's mark), so a change makes a new one. */
  key: string;
  name: string | null;
  size: number;
  at: number;
}

interface ZipDeps {
  repo: PublishRepository;
  rclone: RclonePort;
  sources: PublishSources;
  clock: Clock;
  log: Logger;
  stageDir: string;
  work: PublishWork;
}

/**
 * Makes the event's ZIP again when its photos changed, once every photo wanted is online (a ZIP
 * of half an event helps nobody), at most once every `settleMs` (a live event changes with each
 * photo; meanwhile the page offers the previous ZIP). Says whether the page must be written again.
 * The old ZIP is removed by the next comparison with the remote, once the page no longer names it.
 */
export async function refreshZip(
  deps: ZipDeps,
  pub: PublicationRow,
  event: EventRow,
  where: { target: PublishTarget; dest: string },
  settleMs: number,
  maxBytes = MAX_ZIP_BYTES,
): Promise<boolean> {
  const { repo } = deps;
  const counts = repo.counts(pub.event_id);
  if (repo.pending(pub.event_id).length > 0 || counts.online < counts.total || counts.total === 0) return false;
  const rows = repo.onlineFiles(pub.event_id);
  const lock = repo.lock(pub.event_id);
  const key = createHash('sha256')
    .update(
      rows
        .map((r) => `${r.photo_id}:${r.version}`)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 24);
  const current = repo.zip(pub.event_id);
  const now = deps.clock.now();
  if (current?.key === key) return false;
  if (current && now - current.at < settleMs) return false;
  const size = rows.reduce((n, r) => n + r.size, 0);
  if (size > maxBytes) {
    // Past the cap the page offers no ZIP: it changes only if it offered one.
    const offered = current?.name != null;
    repo.setZip(pub.event_id, { key, name: null, size, at: now }, offered);
    return offered;
  }
  const name = lock === undefined ? `zip/${key}.zip` : `zip/${sealedName(lock, `zip:${key}`)}.bin`;
  const dir = path.join(deps.stageDir, `zip-${pub.token}-${randomBytes(4).toString('hex')}`);
  await mkdir(path.join(dir, 'zip'), { recursive: true });
  try {
    const plain = path.join(dir, 'photos.zip');
    const made = await writeZip(deps, event, rows, dir, plain);
    if (!made) return false;
    if (lock !== undefined) await deps.work.seal(lock.key, plain, path.join(dir, name));
    else await rename(plain, path.join(dir, name));
    const sent = (await stat(path.join(dir, name))).size;
    await deps.rclone.copyNew(where.target, dir, [name], where.dest);
    repo.setZip(pub.event_id, { key, name, size: sent, at: now });
    return true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The photos' full files under their download names, stored (JPEG and MP4 are compressed already),
 * written by a background worker. False, and the ZIP left as it was, when a photo's file is gone.
 */
async function writeZip(
  deps: ZipDeps,
  event: EventRow,
  rows: ReturnType<PublishRepository['onlineFiles']>,
  dir: string,
  out: string,
): Promise<boolean> {
  const names = downloadNames(event.name, rows);
  const entries: ExportEntry[] = [];
  let fetched = 0;
  for (const row of [...rows].reverse()) {
    let file = deps.sources.localFile(row);
    if (file === undefined) {
      // The capture app runs elsewhere: its copy comes over HTTP first (bounded by the cap).
      file = path.join(dir, `fetched-${fetched++}`);
      if (!(await deps.sources.fetchFull(row, file))) file = undefined;
    }
    if (file === undefined) return zipLeftAsItWas(deps);
    entries.push({ name: names.get(row.photo_id) ?? path.basename(row.file), file, size: row.size, mtime: row.mtime });
  }
  return (await deps.work.zip(entries, out)).complete || zipLeftAsItWas(deps);
}

function zipLeftAsItWas(deps: ZipDeps): false {
  deps.log.warn(
    `Publishing: the event's ZIP could not be made whole (a photo's file is missing or could not be read); it is left as it was`,
  );
  return false;
}

/** The label and file the page offers; null when there is no ZIP to offer. */
export function zipOffer(state: ZipState | null): { name: string; size: number } | null {
  return state?.name ? { name: state.name, size: state.size } : null;
}
