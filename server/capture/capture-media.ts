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
