/**
 * A short name for one state of a photo's file: its mtime, its size and the capture app's
 * updated_at. A filter applied at the booth rewrites the file and bumps updated_at, so the
 * version changes; every derived copy (thumbnail, poster) is kept under it, and every URL
 * carries it, so a phone that cached the old picture asks for the new one.
 */
export function mediaVersion(photo: { mtime: number; size: number; updated_at: number | null }): string {
  // FNV-1a over the three numbers: seven base-36 characters, compared only with the same
  // photo's previous version.
  let hash = 0x811c9dc5;
  for (const ch of `${photo.mtime}:${photo.size}:${photo.updated_at ?? ''}`) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

/** What a version may look like in a URL; anything else is ignored as if absent. */
export const MEDIA_VERSION = /^[0-9a-z]{7}$/;
