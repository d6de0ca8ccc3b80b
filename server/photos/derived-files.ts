import { mkdirSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isUuid } from '../capture/capture.types.js';
import { MEDIA_VERSION } from './media-version.js';

/**
 * Files Boothdeck makes from one version of a photo (thumbnails, video posters), kept under
 * `<dir>/<first two characters of the id>/<id>-<version>.<ext>`: a new version of the photo is
 * a new file, so nothing ever serves a copy of the old picture under the new one's name.
 */
export class DerivedFiles {
  constructor(
    readonly dir: string,
    private readonly ext: string,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  pathOf(id: string, version: string): string {
    if (!isUuid(id) || !MEDIA_VERSION.test(version)) throw new Error('not a photo id and version');
    return path.join(this.dir, id.slice(0, 2), `${id}-${version}.${this.ext}`);
  }

  /** Where copies were kept before they carried a version: removed when a new one is made. */
  legacyPathOf(id: string): string {
    return path.join(this.dir, id.slice(0, 2), `${id}.${this.ext}`);
  }

  /** Removes the copies of a photo, every version but `keep`. */
  async removeAll(id: string, keep?: string): Promise<void> {
    if (!isUuid(id)) return;
    const folder = path.join(this.dir, id.slice(0, 2));
    let names: string[];
    try {
      names = await fsp.readdir(folder);
    } catch {
      return;
    }
    const kept = keep === undefined ? undefined : `${id}-${keep}.${this.ext}`;
    await Promise.all(names.filter((n) => n.startsWith(id) && n !== kept).map((n) => fsp.rm(path.join(folder, n), { force: true })));
  }
}
