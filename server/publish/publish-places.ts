import { z } from 'zod';
import type { Destination, PublishSettings } from '../contract/publish.contract.js';
import { destinationInput } from './destination.schema.js';
import type { PublishTarget } from './publish-destination.js';
import { BOOTH_NAME } from './publish.schema.js';
import { destinationRoot } from './rclone-config.js';
import { remoteJoin } from './rclone.port.js';

/**
 * Where an event's files are: the destination (without its secret) and the booth name. It is
 * stored with each publication, so a change of either is seen and the event sent again.
 */
export interface Place {
  destination: Destination;
  booth: string;
}

const storedPlace = z.object({ destination: destinationInput, booth: z.string().regex(BOOTH_NAME) });

/** The settings' place as a key; null while there is no destination. */
export function placeKey(settings: PublishSettings): string | null {
  if (settings.destination === null) return null;
  const { password_set: _set, ...destination } = settings.destination;
  return JSON.stringify({ destination, booth: settings.booth_name });
}

/** A stored place, read back through the destination's own checks: nothing unchecked ever reaches rclone. */
export function parsePlace(key: string): Place | null {
  let raw: unknown;
  try {
    raw = JSON.parse(key);
  } catch {
    return null;
  }
  const parsed = storedPlace.safeParse(raw);
  if (!parsed.success) return null;
  const { password: _none, ...destination } = parsed.data.destination as Destination & { password?: unknown };
  return { destination, booth: parsed.data.booth };
}

/** The remote itself, without the folder in it: the same server and account, or the same folder type. */
function remoteOf(d: Destination): string {
  const { path: _path, ...rest } = d;
  if (rest.type === 's3') {
    const { bucket: _bucket, ...server } = rest;
    return JSON.stringify(server);
  }
  return JSON.stringify(rest);
}

/**
 * How to reach an old place from here. A folder on the booth's own disk always (rclone reads a
 * plain path whatever the current destination; the stored place went through the destination's
 * checks again in parsePlace). Another remote only through the current rclone file, so only when
 * the old place is on the same remote (another folder, another booth name): another server's
 * password is no longer stored, so those copies are listed for the owner instead.
 */
export function reachOf(
  old: Place,
  current: Destination,
  target: PublishTarget,
  token: string,
): { target: PublishTarget; dest: string } | null {
  if (old.destination.type === 'local') {
    const root = old.destination.path;
    return { target: { configFile: target.configFile, root }, dest: remoteJoin(root, old.booth, token) };
  }
  if (remoteOf(old.destination) !== remoteOf(current)) return null;
  const root = destinationRoot(old.destination);
  return { target: { configFile: target.configFile, root }, dest: remoteJoin(root, old.booth, token) };
}

/** The old place in words for the owner (no secret is part of a destination). */
export function describePlace(place: Place, token: string): string {
  const d = place.destination;
  const tail = `${place.booth}/${token}/`;
  const under = (base: string, folder: string): string => [base, folder, tail].filter((p) => p !== '').join('/');
  switch (d.type) {
    case 'local':
      return under(d.path === '/' ? '' : d.path, '');
    case 'webdav':
      return under(d.url.replace(/\/+$/, ''), d.path);
    case 'sftp':
      return under(`sftp://${d.user}@${d.host}:${d.port}`, d.path);
    case 's3':
      return `${under(`s3://${d.bucket}`, d.path)} (${d.provider}${d.endpoint === '' ? '' : ` ${d.endpoint}`})`;
    case 'rclone':
      return `${d.remote}:${[d.path, tail].filter((p) => p !== '').join('/')}`;
  }
}
