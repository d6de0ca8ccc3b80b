import type { CaptureAppPort, CaptureFile } from '../capture/capture.port.js';
import { CaptureAppError, NotFoundError } from '../core/errors.js';
import { readBounded, TooLargeError, TooSlowError } from '../media/bounded-read.js';

/** A preview kept in memory, as the capture app sent it. */
export interface KeptPreview {
  data: Buffer;
  contentType: string;
}

/**
 * The newest photos' previews: a new photo is opened in the lightbox by many phones within a
 * minute, and each used to be a request to the capture app (its own web server, on the cores it
 * needs for the preview and the next capture). About fifty 1200 px JPEGs.
 */
const MEMORY_BYTES = 12 * 1024 * 1024;
/** Previews kept at most, whatever their size: a capture app sending tiny or empty ones fills no map. */
export const MAX_KEPT = 256;
/** An animation's preview (an animated WebP of several megabytes) is passed through, not kept. */
const MAX_KEPT_BYTES = 1536 * 1024;
/** A preview the capture app trickles slower than this is given up (a guest is waiting). */
const FETCH_DEADLINE_MS = 30_000;
/**
 * Previews read into memory at once. Two hundred phones opening two hundred different photos
 * would otherwise hold up to 300 MB of reads on a 2 GB board; past this, a preview is streamed
 * to its asker as before the cache, and kept by none.
 */
export const MAX_BUFFERING = 4;

/**
 * The capture app's preview of each photo version, fetched once and kept in memory (least
 * recently used dropped first) while it is small enough; phones asking at the same moment share
 * the one fetch. A preview too large to keep, or of unknown length, is streamed to each asker.
 */
export class PreviewCache {
  private readonly kept = new Map<string, KeptPreview>();
  private bytes = 0;
  private readonly fetching = new Map<string, Promise<KeptPreview | undefined>>();
  private buffering = 0;

  constructor(private readonly capture: CaptureAppPort) {}

  /** The preview of `id` at `version`: kept bytes, or the capture app's stream. `wanted` is asked before keeping. */
  async get(id: string, version: string, wanted: () => boolean): Promise<KeptPreview | { remote: CaptureFile }> {
    const key = `${id}-${version}`;
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const pending = this.fetching.get(key);
    if (pending) return (await pending) ?? { remote: await this.open(id) };
    if (this.buffering >= MAX_BUFFERING) return { remote: await this.open(id) };
    this.buffering++;
    let remote: CaptureFile | undefined;
    const work = (async (): Promise<KeptPreview | undefined> => {
      const file = await this.open(id);
      if (file.contentLength === undefined || file.contentLength > MAX_KEPT_BYTES) {
        remote = file;
        return undefined;
      }
      let data: Buffer;
      try {
        data = await readBounded(file.stream, MAX_KEPT_BYTES, file.contentLength, FETCH_DEADLINE_MS);
      } catch (err) {
        if (err instanceof TooLargeError || err instanceof TooSlowError)
          throw new CaptureAppError(`The capture app's preview: ${err.message}`);
        throw err;
      }
      const preview = { data, contentType: file.contentType };
      if (wanted()) this.keep(key, preview);
      return preview;
    })();
    this.fetching.set(
      key,
      work.catch(() => undefined),
    );
    try {
      return (await work) ?? { remote: remote as CaptureFile };
    } finally {
      this.buffering--;
      this.fetching.delete(key);
    }
  }

  /** Forgets a photo's previews: of one version, or all of them. */
  forget(id: string, version?: string): void {
    for (const key of [...this.kept.keys()]) {
      if (version === undefined ? key.startsWith(`${id}-`) : key === `${id}-${version}`) this.drop(key);
    }
  }

  private async open(id: string): Promise<CaptureFile> {
    const file = await this.capture.openMedia('preview', id);
    if (!file) throw new NotFoundError('The photo’s file is missing');
    return file;
  }

  private keep(key: string, preview: KeptPreview): void {
    this.drop(key);
    this.kept.set(key, preview);
    this.bytes += preview.data.length;
    for (const oldest of this.kept.keys()) {
      if (this.bytes <= MEMORY_BYTES && this.kept.size <= MAX_KEPT) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const value = this.kept.get(key);
    if (!value) return;
    this.kept.delete(key);
    this.bytes -= value.data.length;
  }
}
