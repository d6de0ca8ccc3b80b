import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { UserFile } from '../contract/actions.contract.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { keepBounded } from '../core/util/bounded-map.js';

const IMAGE = /\.(png|jpe?g|webp|gif)$/i;
const USERDATA_PATH = /^userdata\/(?:[\p{L}\p{N} _.\-()+,'&]+\/)*[\p{L}\p{N} _.\-()+,'&]+$/u;
const MAX_SOURCE_BYTES = 40 * 1024 * 1024;
const PREVIEW_PX = 240;
const CACHE_SIZE = 64;

export interface Preview {
  data: Buffer;
  contentType: string;
}

interface Analysis {
  preview: Preview;
  transparent: boolean;
  /** A digest of the file's bytes: a frame replaced under the same name gets a new preview address. */
  version: string;
}

/** Files read at once while listing: enough to be quick, few enough for the board's two cores. */
const LIST_CONCURRENCY = 3;

function folderOf(path: string): UserFile['folder'] {
  const dirs = path.split('/').slice(0, -1).join('/');
  if (/(^|\/)(frames?|cadres?)(\/|$)/i.test(dirs)) return 'frames';
  if (/(^|\/)(backgrounds?|fonds?)(\/|$)/i.test(dirs)) return 'backgrounds';
  return 'other';
}

const previewUrl = (path: string, version: string | null): string =>
  `/api/admin/userfiles/preview?${new URLSearchParams(version ? { path, v: version } : { path }).toString()}`;

/**
 * The capture app's userdata images (frames, backgrounds), listed and previewed for the console.
 * The capture app tells no file's date, so each file is read again and its analysis kept by the
 * digest of its bytes: reading is cheap on the board's loopback, decoding is what the cache spares.
 */
export class UserFilesService {
  private readonly cache = new Map<string, Analysis>();

  constructor(private readonly capture: CaptureAppPort) {}

  async images(): Promise<UserFile[]> {
    const paths = (await this.capture.listUserFiles('')).filter((f) => IMAGE.test(f) && USERDATA_PATH.test(f));
    const out: UserFile[] = [];
    for (let i = 0; i < paths.length; i += LIST_CONCURRENCY) {
      const batch = paths.slice(i, i + LIST_CONCURRENCY);
      const analyses = await Promise.all(batch.map((path) => this.analyse(path).catch(() => null)));
      batch.forEach((path, j) => {
        const analysis = analyses[j] ?? null;
        out.push({
          path,
          preview_url: previewUrl(path, analysis?.version ?? null),
          folder: folderOf(path),
          transparent: analysis?.transparent ?? null,
        });
      });
    }
    return out;
  }

  async preview(path: string): Promise<Preview> {
    return (await this.analyse(path)).preview;
  }

  /** Reads a file once for both its preview and whether it has transparent pixels. */
  private async analyse(path: string): Promise<Analysis> {
    if (!USERDATA_PATH.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
      throw new ValidationError('Invalid path: must be a file inside userdata/');
    }
    const file = await this.capture.openFile(`/${path}`);
    if (!file) throw new NotFoundError(`No such file in the capture app: ${path}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of file.stream) {
      size += (chunk as Buffer).length;
      if (size > MAX_SOURCE_BYTES) {
        file.stream.destroy();
        throw new ValidationError('That file is too large to preview');
      }
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    const version = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const cached = this.cache.get(version);
    if (cached) return cached;
    let analysis: Analysis;
    try {
      const source = sharp(bytes);
      const { hasAlpha } = await source.metadata();
      // An alpha channel alone says nothing: a frame needs pixels one can see through.
      const transparent = hasAlpha === true && !(await source.clone().stats()).isOpaque;
      const data = await source.resize(PREVIEW_PX, PREVIEW_PX, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
      analysis = { preview: { data, contentType: 'image/png' }, transparent, version };
    } catch {
      throw new ValidationError('That file is not an image that can be previewed');
    }
    keepBounded(this.cache, version, analysis, CACHE_SIZE);
    return analysis;
  }
}
