import type { Clock } from '../core/clock/clock.port.js';
import type { PublishSettings } from '../contract/publish.contract.js';
import type { PublishTarget } from './publish-destination.js';
import { describePlace, parsePlace, reachOf } from './publish-places.js';
import type { PublicationRow, PublishFileRow, PublishRepository } from './publish.repository.js';
import type { RclonePort } from './rclone.port.js';

const namesOfRow = (row: PublishFileRow): string[] => JSON.parse(row.names) as string[];

/** What a listing of the event's folder showed: each file's size by its name. */
export type Listing = ReadonlyMap<string, number>;

export async function listEvent(rclone: RclonePort, where: { target: PublishTarget; dest: string }): Promise<Listing> {
  return new Map((await rclone.listFiles(where.target, where.dest)).map((f) => [f.path, f.size]));
}

/**
 * Whether the listing holds every name whole: there, and of the size it was sent with (a file cut
 * short by a dropped connection or a full disk is not). Rows sent before sizes were kept are
 * compared by their names only.
 */
export function holdsWhole(there: Listing, names: readonly string[], sizes: readonly number[] | null): boolean {
  return names.every((name, i) => {
    const size = there.get(name);
    return size !== undefined && (sizes?.[i] === undefined || sizes[i] === size);
  });
}

const sizesOfRow = (row: PublishFileRow): number[] | null => (row.sizes === null ? null : (JSON.parse(row.sizes) as number[]));

/** Files the queue writes under an event's folder: anything else there is left alone. */
const OURS = /^(media|thumbs|p|previews|zip|logo)\//;

/**
 * Compares what the queue says is online with a listing of the event's folder: a file missing
 * (removed by hand, lost by the server) or of another size than sent (cut short) goes back to
 * pending and is sent again whole, a page missing is written again,
 * and a file of ours that no row names (a crash between a removal and its record) is removed.
 * Returns whether something is to be sent again.
 */
export async function checkEvent(
  deps: { repo: PublishRepository; rclone: RclonePort; clock: Clock; logo: () => { name: string } | null },
  pub: PublicationRow,
  where: { target: PublishTarget; dest: string },
  /** A listing taken after the last change of the folder (the sending's last); otherwise the folder is listed now. */
  listing?: Listing,
): Promise<boolean> {
  const { repo, rclone } = deps;
  const there = listing ?? (await listEvent(rclone, where));
  const rows = repo.files(pub.event_id);
  const missing = rows.filter((r) => r.state === 'online' && !holdsWhole(there, namesOfRow(r), sizesOfRow(r)));
  const zip = repo.zip(pub.event_id)?.name ?? null;
  const logo = deps.logo()?.name ?? null;
  const known = new Set([...rows.flatMap(namesOfRow), ...(zip === null ? [] : [zip]), ...(logo === null ? [] : [logo])]);
  const strays = [...there.keys()].filter((n) => OURS.test(n) && !known.has(n));
  // The page or its logo gone: the page is written again, and the logo sent with it.
  const noPage = pub.index_at !== null && (!there.has('index.html') || (logo !== null && !there.has(logo)));
  // The ZIP gone: the page stops offering it and the next pass makes it again.
  const noZip = zip !== null && there.get(zip) !== repo.zip(pub.event_id)?.size;
  if (noZip) repo.setZip(pub.event_id, null);
  if (missing.length > 0) repo.requeue(pub.event_id, missing);
  if (noPage) repo.markIndexStale(pub.event_id);
  if (strays.length > 0) await rclone.remove(where.target, where.dest, strays);
  repo.setChecked(pub.event_id, deps.clock.now());
  return missing.length > 0 || noPage || noZip;
}

/**
 * Removes the copies left at a place the booth no longer publishes to, when the current rclone file
 * still reaches it; the others stay listed for the owner. A place the event is back at is its
 * current one: its copy is the event itself and is kept.
 */
export async function clearLeftovers(
  deps: { repo: PublishRepository; rclone: RclonePort },
  settings: PublishSettings,
  target: PublishTarget,
  place: string,
  stopped: () => boolean,
): Promise<void> {
  const { repo, rclone } = deps;
  const destination = settings.destination;
  if (destination === null) return;
  for (const left of repo.leftovers()) {
    if (stopped()) return;
    const pub = repo.publication(left.event_id);
    if (left.place === place && pub && pub.state !== 'withdrawn' && pub.token === left.token) {
      repo.dropLeftover(left.id);
      continue;
    }
    const old = parsePlace(left.place);
    const { password_set: _set, ...current } = destination;
    // Another setting of the same folder (a WebDAV server's kind, an S3 region): the event was sent
    // there again, so that copy is the event itself, neither to remove nor to list.
    const here = { destination: current, booth: settings.booth_name };
    if (old && pub && pub.state !== 'withdrawn' && describePlace(old, left.token) === describePlace(here, left.token)) {
      repo.dropLeftover(left.id);
      continue;
    }
    const reach = old === null ? null : reachOf(old, current, target, left.token);
    repo.setLeftoverRemovable(left.id, reach !== null);
    if (reach === null) continue;
    await rclone.purge(reach.target, reach.dest);
    if (!stopped()) repo.dropLeftover(left.id);
  }
}
