import { existsSync, mkdirSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { writeFileAtomic } from '../core/fs/atomic-write.js';
import { isUuid } from '../capture/capture.types.js';
import { NotFoundError, isDiskFull } from '../core/errors.js';

const EDGE_PX = 480;
const QUALITY = 72;
/** sharp already uses every core for one image; two at a time keeps the booth responsive. */
const PARALLEL = 2;

/**
 * Gallery thumbnails, made once with sharp (WebP, a few tens of KB) and kept on disk under
 * the photo's UUID. Requests for the same thumbnail while it is being made share the work.
 */
export class ThumbnailStore {
  private readonly inFlight = new Map<string, Promise<string | Buffer>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  pathOf(id: string): string {
    if (!isUuid(id)) throw new Error('not a photo id');
    return path.join(this.dir, id.slice(0, 2), `${id}.webp`);
  }

  has(id: string): boolean {
    return existsSync(this.pathOf(id));
  }

  /**
   * The thumbnail file, made from `source` (an image buffer or a file path) if not there yet.
   * `wanted` is asked again before writing: a photo deleted meanwhile leaves no thumbnail.
   * On a full disk the thumbnail is handed back in memory, uncached: the gallery keeps serving.
   */
  ensure(id: string, wanted: () => boolean, source: () => Promise<Buffer | string>): Promise<string | Buffer> {
    const file = this.pathOf(id);
    if (existsSync(file)) return Promise.resolve(file);
    const pending = this.inFlight.get(id);
    if (pending) return pending;
    const work = this.slot(async () => {
      const input = await source();
      const data = await sharp(input, { failOn: 'none' })
        .rotate()
        .resize(EDGE_PX, EDGE_PX, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: QUALITY })
        .toBuffer();
      if (!wanted()) throw new NotFoundError('No such photo');
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, data);
      } catch (err) {
        if (isDiskFull(err)) return data;
        throw err;
      }
      return file;
    }).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, work);
    return work;
  }

  async remove(id: string): Promise<void> {
    if (isUuid(id)) await fsp.rm(this.pathOf(id), { force: true });
  }

  private async slot<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= PARALLEL) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
