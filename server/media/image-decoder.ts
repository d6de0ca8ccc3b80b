import sharp, { type Metadata } from 'sharp';
import { MAX_INPUT_PIXELS, MAX_SOURCE_BYTES } from '../photos/image-limits.js';
import { readBoundedFile } from './bounded-read.js';
import { SNIFF_BYTES, readHead, sniffFormat } from './media-sniff.js';

/** A file that cannot or must not be decoded into a picture: a placeholder stands in for it. */
export class UnreadableMediaError extends Error {}

/**
 * What the booth makes and a browser shows: JPEG photos and collages, WebP, AVIF or GIF animations, and
 * what a capture app configured otherwise may write (PNG, WebP, AVIF/HEIF). Never SVG (a
 * renderer of its own, with its own limits) nor anything sharp merely happens to read.
 */
const DECODED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);

/**
 * libvips' operation cache keeps decoded pixels of recent files (50 MB, 100 operations by
 * default): for thumbnails made once each it only holds memory after the work is done.
 * Files stay closed; a few small operations may stay.
 */
const CACHE = { memory: 16, files: 0, items: 20 };

let configured = false;

/** sharp's process-wide settings; called once when the service is composed. */
export function configureImageDecoding(): void {
  if (configured) return;
  configured = true;
  sharp.cache(CACHE);
}

/**
 * libvips finds a HEIF/AVIF file by its major brand, and an AVIF image sequence (the capture
 * app's AVIF animation, major brand `avis`) is not among them, though it carries its first frame
 * as the primary image, which libheif reads. The sequence is handed over under the brand `avif`
 * (in a copy; the file is never written), so its first frame is what gets drawn.
 */
async function decodable(input: Buffer | string): Promise<Buffer | string> {
  const head = typeof input === 'string' ? await readHead(input) : input.subarray(0, SNIFF_BYTES);
  if (!head || sniffFormat(head) !== 'avif-sequence') return input;
  const copy = typeof input === 'string' ? await readBoundedFile(input, MAX_SOURCE_BYTES) : Buffer.from(input);
  copy.write('avif', 8, 'latin1');
  return copy;
}

export interface ImageHeader {
  format: string;
  width: number;
  height: number;
}

/**
 * Reads only the header (a few KB) and refuses what must not be decoded: an unknown format,
 * no size, or more pixels than the largest legitimate input (a 48 MP camera's). A 746 KB PNG
 * can announce 16000 × 16000 pixels: a gigabyte once decoded.
 */
export async function checkImageHeader(input: Buffer | string): Promise<ImageHeader> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new UnreadableMediaError(`not an image (${err instanceof Error ? err.message : String(err)})`);
  }
  const { format, width, height } = meta;
  if (!format || !DECODED_FORMATS.has(format)) throw new UnreadableMediaError(`a ${format ?? 'unknown'} file is not decoded`);
  // An animation's height covers every frame; only the first one is drawn.
  const frameHeight = meta.pageHeight ?? height;
  if (!width || !frameHeight) throw new UnreadableMediaError('the image announces no size');
  if (width * frameHeight > MAX_INPUT_PIXELS) {
    throw new UnreadableMediaError(`${width} × ${frameHeight} pixels, ${MAX_INPUT_PIXELS} at most`);
  }
  return { format, width, height: frameHeight };
}

export interface ResizeOptions {
  edge: number;
  format: 'webp' | 'jpeg';
  quality: number;
  effort?: number;
}

/**
 * A bounded picture from an untrusted file: the header is checked first, then the decoder
 * itself is held to the same pixel limit (a header may lie about what follows). Every failure
 * is an UnreadableMediaError, for the caller to show a placeholder.
 */
export async function resizeBounded(source: Buffer | string, options: ResizeOptions): Promise<Buffer> {
  let input: Buffer | string;
  try {
    input = await decodable(source);
  } catch (err) {
    throw new UnreadableMediaError(err instanceof Error ? err.message : String(err));
  }
  await checkImageHeader(input);
  try {
    const image = sharp(input, { failOn: 'none', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
      .rotate()
      .resize(options.edge, options.edge, { fit: 'inside', withoutEnlargement: true });
    return await (
      options.format === 'webp'
        ? image.webp({ quality: options.quality, effort: options.effort ?? 4 })
        : image.jpeg({ quality: options.quality })
    ).toBuffer();
  } catch (err) {
    throw new UnreadableMediaError(err instanceof Error ? err.message : String(err));
  }
}
