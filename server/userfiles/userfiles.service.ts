import sharp from 'sharp';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { UserFile } from '../contract/actions.contract.js';
import { NotFoundError, ValidationError } from '../core/errors.js';

const IMAGE = /\.(png|jpe?g|webp|gif)$/i;
const USERDATA_PATH = /^userdata\/(?:[\p{L}\p{N} _.\-()+,'&]+\/)*[\p{L}\p{N} _.\-()+,'&]+$/u;
const MAX_SOURCE_BYTES = 40 * 1024 * 1024;
const PREVIEW_PX = 240;
const CACHE_SIZE = 64;

export interface Preview {
  data: Buffer;
  contentType: string;
}

const previewUrl = (path: string): string => `/api/admin/userfiles/preview?path=${encodeURIComponent(path)}`;

/** The capture app's userdata images (frames, backgrounds), listed and previewed for the console. */
export class UserFilesService {
  private readonly cache = new Map<string, Preview>();

  constructor(private readonly capture: CaptureAppPort) {}

  async images(): Promise<UserFile[]> {
    const files = await this.capture.listUserFiles('');
    return files.filter((f) => IMAGE.test(f) && USERDATA_PATH.test(f)).map((path) => ({ path, preview_url: previewUrl(path) }));
  }

  async preview(path: string): Promise<Preview> {
    if (!USERDATA_PATH.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
      throw new ValidationError('Invalid path: must be a file inside userdata/');
    }
    const cached = this.cache.get(path);
    if (cached) return cached;
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
    let data: Buffer;
    try {
      data = await sharp(Buffer.concat(chunks))
        .resize(PREVIEW_PX, PREVIEW_PX, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
    } catch {
      throw new ValidationError('That file is not an image that can be previewed');
    }
    const preview = { data, contentType: 'image/png' };
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(path, preview);
    return preview;
  }
}
