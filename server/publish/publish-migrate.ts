import type { Destination } from '../contract/publish.contract.js';
import { isObject } from '../core/util/json.js';
import { destinationInput, REMOTE_NAME } from './destination.schema.js';

export interface Migrated {
  settings: Record<string, unknown>;
  /** The old destination was neither a folder nor a remote's name: it is gone, never run. */
  dropped: boolean;
}

/**
 * Settings stored before destinations had types held one free-text `remote`. A folder becomes a
 * local destination, `name:path` a remote of the owner's rclone file (with the file it was read
 * from); anything else (`:webdav,url=…:`, `name,opt=…:`) was a connection string and is dropped,
 * unread and unrun. Pure: the caller stores the result and says it in words.
 */
export function migrateLegacy(stored: unknown): Migrated | null {
  if (!isObject(stored) || !('remote' in stored)) return null;
  const { remote, config, ...rest } = stored;
  const text = typeof remote === 'string' ? remote.trim() : '';
  let destination: Destination | null = null;
  if (text.startsWith('/')) {
    const parsed = destinationInput.safeParse({ type: 'local', path: text });
    if (parsed.success) destination = parsed.data;
  } else {
    const colon = text.indexOf(':');
    const name = colon > 0 ? text.slice(0, colon) : '';
    if (REMOTE_NAME.test(name)) {
      const parsed = destinationInput.safeParse({
        type: 'rclone',
        remote: name,
        path: text.slice(colon + 1),
        config: config === 'user' ? 'user' : 'boothdeck',
      });
      if (parsed.success) destination = parsed.data;
    }
  }
  const dropped = text !== '' && destination === null;
  return { settings: { ...rest, destination, notice: dropped ? 'destination_dropped' : null }, dropped };
}
