import path from 'node:path';

/**
 * Where a path the capture app reports (`media/processed_full/….jpg`) lies in its data folder,
 * only if it stays inside the media folder: a reported path never reaches elsewhere on disk.
 */
export function captureMediaPath(captureDataDir: string, relative: string): string | undefined {
  const root = path.resolve(captureDataDir);
  const full = path.resolve(root, relative);
  return full.startsWith(path.join(root, 'media') + path.sep) ? full : undefined;
}

/** The only types a proxied media file is served as; anything else is refused. */
export const MEDIA_CONTENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'video/mp4',
  'video/webm',
  'video/quicktime',
] as const;

/**
 * Boothdeck's own Content-Type for a file the capture app sent, from the allowlist; parameters
 * and case of the capture app's header are dropped. Undefined when it is not an allowed type.
 */
export function mediaContentType(header: string | null): string | undefined {
  const base = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const normal = base === 'image/jpg' || base === 'image/pjpeg' ? 'image/jpeg' : base;
  return (MEDIA_CONTENT_TYPES as readonly string[]).find((t) => t === normal);
}
