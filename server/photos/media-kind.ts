import path from 'node:path';
import type { MediaKind } from '../contract/photos.contract.js';

/** Every processed file the capture app makes: stills, collages, GIF animations, videos. */
export const MEDIA_FILE = /\.(jpe?g|png|webp|gif|mp4|webm|mov)$/i;

const VIDEO = /\.(mp4|webm|mov)$/i;
const ANIMATION = /\.gif$/i;

/**
 * The kind of one of the capture app's items. The file decides first, since it is what a
 * browser will have to show (a multicamera "wigglegram" is a GIF); the media type then tells
 * a collage from a single still.
 */
export function mediaKindOf(mediaType: string, file: string): MediaKind {
  if (VIDEO.test(file)) return 'video';
  if (ANIMATION.test(file)) return 'animation';
  return mediaType === 'collage' ? 'collage' : 'photo';
}

/** Kinds a browser plays from the file itself rather than from a still copy. */
export const isMoving = (kind: MediaKind): boolean => kind === 'video' || kind === 'animation';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
};

export const contentTypeOf = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
