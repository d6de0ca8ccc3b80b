import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { CaptureFile } from '../../server/capture/capture.port.js';
import type { MediaVariant } from '../../server/capture/capture.types.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { checkImageHeader, configureImageDecoding, UnreadableMediaError } from '../../server/media/image-decoder.js';
import type { VideoFramePort } from '../../server/media/video-frame.port.js';
import { MAX_INPUT_PIXELS, MAX_SOURCE_BYTES } from '../../server/photos/image-limits.js';
import { mediaVersion } from '../../server/photos/media-version.js';
import { PhotoMedia } from '../../server/photos/photo-media.js';
import type { PhotoRow } from '../../server/photos/photo.repository.js';
import { PosterStore } from '../../server/photos/poster.store.js';
import { ThumbnailStore } from '../../server/photos/thumbnail.store.js';
import { announcingPng, mp4Bytes } from '../support/crafted-images.js';
import { photoRow } from '../support/photo-row.js';

/** A capture app whose thumbnails are whatever the test says, with the bytes it had to send counted. */
class HostileCapture extends FakeCaptureApp {
  answer: () => CaptureFile = () => ({ stream: Readable.from([]), contentType: 'image/jpeg', contentLength: 0 });
  sent = 0;
  override async openMedia(_variant: MediaVariant, _id: string): Promise<CaptureFile> {
    return this.answer();
  }
  serve(data: Buffer, contentType = 'image/jpeg'): void {
    this.answer = () => ({ stream: Readable.from([data]), contentType, contentLength: data.length });
  }
  /** An answer of `total` bytes in 1 MB chunks, its length not announced. */
  flood(total: number): void {
    const chunks = function* (counter: { sent: number }): Generator<Buffer> {
      for (let sent = 0; sent < total; sent += 1 << 20) {
        counter.sent += 1 << 20;
        yield Buffer.alloc(1 << 20, 0xff);
      }
    };
    this.answer = () => ({ stream: Readable.from(chunks(this)), contentType: 'image/png', contentLength: undefined });
  }
}

const noFrames: VideoFramePort = { grab: async () => 'no-tool' };
let n = 0;
const versions = new Map<string, string>();
const row = (): PhotoRow => {
  n++;
  const photo = photoRow(n);
  versions.set(photo.id, mediaVersion(photo));
  return photo;
};

let capture: HostileCapture;
let media: PhotoMedia;
beforeEach(() => {
  configureImageDecoding();
  capture = new HostileCapture();
  const clock = new FakeClock();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-bounds-'));
  const thumbnails = new ThumbnailStore(path.join(dir, 'thumbnails'), clock);
  const posters = new PosterStore(path.join(dir, 'posters'), noFrames, clock, createRecordingLogger());
  // No local capture folder: every picture is fetched from the capture app, as on a second machine.
  media = new PhotoMedia(capture, thumbnails, posters, path.join(dir, 'capture'), (id) => versions.get(id));
});

describe('thumbnails from a capture app that sends too much', () => {
  it('shows the placeholder tile for a 746 KB-style PNG announcing 16000 × 16000 pixels, without decoding it', async () => {
    capture.serve(announcingPng(16000, 16000), 'image/png');
    const picture = await media.thumbnail(row(), 'background');
    expect(picture).toMatchObject({ placeholder: true, contentType: 'image/webp' });
    expect((await sharp(picture.data).metadata()).format).toBe('webp');
  });

  it('shows the placeholder for 30000 × 30000 pixels, MP4 bytes and SVG, never an error', async () => {
    for (const [data, type] of [
      [announcingPng(30000, 30000), 'image/png'],
      [mp4Bytes(), 'image/jpeg'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="90000" height="90000"/>'), 'image/svg+xml'],
      [Buffer.from('not an image at all'), 'image/jpeg'],
    ] as const) {
      capture.serve(data, type);
      const picture = await media.thumbnail(row(), 'request');
      expect(picture.placeholder, type).toBe(true);
    }
  });

  it('stops reading a 600 MB answer at the size cap, and shows the placeholder', async () => {
    capture.flood(600 * 1024 * 1024);
    const picture = await media.thumbnail(row(), 'background');
    expect(picture.placeholder).toBe(true);
    expect(capture.sent).toBeLessThanOrEqual(MAX_SOURCE_BYTES + 2 * (1 << 20));
  });

  it('makes a real thumbnail from the largest legitimate input, a 48 MP camera photo (8000 × 6000)', async () => {
    const photo = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#3366aa' } })
      .jpeg({ quality: 60 })
      .toBuffer();
    capture.serve(photo);
    const picture = await media.thumbnail(row(), 'request');
    expect(picture.placeholder).toBe(false);
    const meta = await sharp(picture.data).metadata();
    expect([meta.width, meta.height]).toEqual([480, 360]);
  }, 30_000);
});

describe('the header check', () => {
  it('accepts 48 MP and refuses past the pixel limit, before any decoding', async () => {
    expect(8000 * 6000).toBeLessThanOrEqual(MAX_INPUT_PIXELS);
    await expect(checkImageHeader(announcingPng(8000, 6000))).resolves.toMatchObject({ format: 'png', width: 8000, height: 6000 });
    await expect(checkImageHeader(announcingPng(16000, 16000))).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(checkImageHeader(mp4Bytes())).rejects.toBeInstanceOf(UnreadableMediaError);
  });

  it('keeps sharp’s cache of decoded files small', () => {
    expect(sharp.cache()).toMatchObject({ memory: { max: 16 }, files: { max: 0 }, items: { max: 20 } });
  });
});
