import path from 'node:path';
import type { MediaKind } from '../contract/photos.contract.js';
import { isAnimatedImageFormat, isVideoFormat, type SniffedFormat } from '../media/media-sniff.js';

/**
 * Every processed file the capture app makes: JPEG stills and collages, animations in WebP
 * (its default), AVIF or GIF, videos and multicamera results in MP4 (or an animated image).
 */
export const MEDIA_FILE = /\.(jpe?g|png|webp|avif|gif|mp4|webm|mov)$/i;

const VIDEO_FILE = /\.(mp4|webm|mov)$/i;
const ANIMATION_FILE = /\.(gif|webp|avif)$/i;

/** The capture app's media types whose item moves: played, never printed. */
const MOVING_TYPES: ReadonlySet<string> = new Set(['animation', 'video', 'multicamera']);

/** Media types whose kind cannot be told without the file: the bytes are read for them. */
export const needsBytes = (mediaType: string): boolean => mediaType !== 'image' && mediaType !== 'collage';

/**
 * The kind of one of the capture app's items. Its `media_type` decides first: an image or a
 * collage is a still whatever its file, an animation, a video or a multicamera result moves.
 * The file's own bytes come second, to tell how a moving item plays (an MP4 in a video player,
 * an animated WebP, AVIF or GIF as an image) and to place a media type this version does not
 * know; the extension comes last, when the bytes cannot be read (the capture app runs elsewhere).
 */
export function mediaKindOf(mediaType: string, file: string, format?: SniffedFormat): MediaKind {
  if (mediaType === 'image') return 'photo';
  if (mediaType === 'collage') return 'collage';
  if (isVideoFormat(format)) return 'video';
  if (MOVING_TYPES.has(mediaType)) {
    if (isAnimatedImageFormat(format) || format === 'webp' || format === 'avif' || format === 'png') return 'animation';
    if (VIDEO_FILE.test(file)) return 'video';
    if (ANIMATION_FILE.test(file)) return 'animation';
    return mediaType === 'animation' ? 'animation' : 'video';
  }
  if (isAnimatedImageFormat(format)) return 'animation';
  if (format !== undefined) return 'photo';
  if (VIDEO_FILE.test(file)) return 'video';
  return /\.gif$/i.test(file) ? 'animation' : 'photo';
}

/** Kinds a browser plays from the file itself rather than from a still copy. */
export const isMoving = (kind: MediaKind): boolean => kind === 'video' || kind === 'animation';

/** Only photos and collages go to the printer; an animation or a video never, whatever its file. */
export const isPrintable = (kind: MediaKind): boolean => kind === 'photo' || kind === 'collage';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
};

export const contentTypeOf = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
