import { existsSync, mkdirSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isUuid } from '../capture/capture.types.js';
import { writeFileAtomic } from '../core/fs/atomic-write.js';
import { UnreadableMediaError } from '../media/image-decoder.js';
import { DerivedFiles } from '../photos/derived-files.js';
import type { Logger } from '../core/logger.js';
import { lockMark, type EventLock } from './publish-lock.js';

/** The edge of a still's picture for screens: the lightbox and the photo's own page show it. */
export const PREVIEW_EDGE = 1600;
/**
 * libwebp's effort 2 of 6, as for thumbnails: a camera photo's preview in about 60 % of the time
 * of the default effort, for a file about 3 % larger.
 */
export const PREVIEW_OPTIONS = { edge: PREVIEW_EDGE, format: 'webp', quality: 82, effort: 2 } as const;

const MARK = /^[0-9a-f]{8}$/;

/** What makes a preview (a background worker, below the capture app) and what seals a file (the same). */
export interface PreviewWork {
  /** A picture of the file for screens; throws UnreadableMediaError when it is not one sharp reads. */
  make(file: string): Promise<Buffer>;
  seal(key: Buffer, from: string, to: string): Promise<void>;
}

/**
 * The online gallery's 1600 px previews, made once per version of a photo and kept with the
 * thumbnails and posters (`<data folder>/previews/`), so that a later pass, a move, a rename or a
 * repair sends them again without decoding the photo again. A protected event's sealed copy of
 * a preview is kept beside it under the password's mark: a new password seals again from the
 * kept preview, never from the photo.
 */
export class PreviewStore {
  private readonly files: DerivedFiles;
  private readonly inFlight = new Map<string, Promise<string | null>>();
  /** How many previews were made (decoded and encoded) since the start: the tests and the bench count them. */
  made = 0;

  constructor(
    dir: string,
    private readonly work: PreviewWork,
  ) {
    this.files = new DerivedFiles(dir, 'webp');
  }

  get dir(): string {
    return this.files.dir;
  }

  pathOf(id: string, version: string): string {
    return this.files.pathOf(id, version);
  }

  sealedPathOf(id: string, version: string, lock: EventLock): string {
    const mark = lockMark(lock);
    if (!MARK.test(mark)) throw new Error('not a lock mark');
    return this.pathOf(id, version).replace(/\.webp$/, `.${mark}.bin`);
  }

  has(id: string, version: string): boolean {
    return existsSync(this.pathOf(id, version));
  }

  /**
   * The preview of one version of a photo, made from the file `source()` names if it is not kept
   * yet; null when that file is not a picture sharp reads (the caller publishes the file itself as
   * its preview). Two callers asking for the same one share the work.
   */
  ensure(id: string, version: string, source: () => Promise<string>): Promise<string | null> {
    const file = this.pathOf(id, version);
    if (existsSync(file)) return Promise.resolve(file);
    return this.once(`${id}-${version}`, async () => {
      if (existsSync(file)) return file;
      let data: Buffer;
      try {
        data = await this.work.make(await source());
      } catch (err) {
        if (err instanceof UnreadableMediaError) return null;
        throw err;
      }
      mkdirSync(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, data);
      this.made++;
      return file;
    });
  }

  /** The sealed copy of a kept preview under the event's password; sealed from `plain` when not kept yet. */
  ensureSealed(id: string, version: string, lock: EventLock, plain: string): Promise<string> {
    const file = this.sealedPathOf(id, version, lock);
    if (existsSync(file)) return Promise.resolve(file);
    return this.once(`${id}-${version}-${lockMark(lock)}`, async () => {
      if (existsSync(file)) return file;
      // Sealed beside its final name, then renamed: a crash never leaves half a sealed file under it.
      const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await this.work.seal(lock.key, plain, temp);
        // On the card before its name: a power cut never leaves a short sealed copy to be sent as whole.
        const handle = await fsp.open(temp, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.rename(temp, file);
      } finally {
        await fsp.rm(temp, { force: true });
      }
      return file;
    }) as Promise<string>;
  }

  /** Forgets a photo's previews (plain and sealed): of every version but `keep`, or all of them. */
  async remove(id: string, keep?: string): Promise<void> {
    if (!isUuid(id)) return;
    const folder = path.dirname(this.files.pathOf(id, '0000000'));
    let names: string[];
    try {
      names = await fsp.readdir(folder);
    } catch {
      return;
    }
    const kept = keep === undefined ? undefined : `${id}-${keep}.`;
    await Promise.all(
      names
        .filter((n) => n.startsWith(`${id}-`) && (kept === undefined || !n.startsWith(kept)))
        .map((n) => fsp.rm(path.join(folder, n), { force: true })),
    );
  }

  /** Forgets the sealed copies of a photo's version made under other passwords than `lock` (or under any, without one). */
  async removeSealed(id: string, version: string, lock: EventLock | undefined): Promise<void> {
    if (!isUuid(id)) return;
    const plain = this.pathOf(id, version);
    const folder = path.dirname(plain);
    const stem = path.basename(plain, '.webp');
    const keep = lock === undefined ? undefined : path.basename(this.sealedPathOf(id, version, lock));
    let names: string[];
    try {
      names = await fsp.readdir(folder);
    } catch {
      return;
    }
    await Promise.all(
      names
        .filter((n) => n.startsWith(`${stem}.`) && n.endsWith('.bin') && n !== keep)
        .map((n) => fsp.rm(path.join(folder, n), { force: true })),
    );
  }

  private once(key: string, work: () => Promise<string | null>): Promise<string | null> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = work().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}

/** Photos waiting for their preview at most; a burst beyond it gets its previews when the event is sent. */
const AHEAD_CAPACITY = 2000;

/**
 * Makes previews as photos arrive, one at a time (the other background worker stays free for the
 * galleries' thumbnails), oldest first, so that publishing finds them made. `make` decides whether
 * a photo's event is to go online at all.
 */
export class PreviewsAhead {
  private readonly waiting = new Set<string>();
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly make: (id: string) => Promise<void>,
    private readonly log: Logger,
  ) {}

  push(id: string): void {
    if (this.stopped || this.waiting.size >= AHEAD_CAPACITY) return;
    this.waiting.delete(id);
    this.waiting.add(id);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  drop(id: string): void {
    this.waiting.delete(id);
  }

  /** Resolves once nothing waits (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    await this.running;
  }

  private async drain(): Promise<void> {
    for (let id = this.first(); id !== undefined && !this.stopped; id = this.first()) {
      this.waiting.delete(id);
      try {
        await this.make(id);
      } catch (err) {
        this.log.warn(`Could not make the online preview of photo ${id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  private first(): string | undefined {
    return this.waiting.values().next().value;
  }
}
