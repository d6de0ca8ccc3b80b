import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublishFailure } from '../contract/publish.contract.js';
import { RcloneError, remoteJoin, type RclonePort, type RcloneTarget, type RemoteFile } from './rclone.port.js';

/** A remote in memory: what is there, how many times each name was sent, and a switch to make it fail. */
export class FakeRclone implements RclonePort {
  readonly files = new Map<string, Buffer>();
  readonly uploads = new Map<string, number>();
  failure: PublishFailure | null = null;
  /** The remotes an owner's rclone file lists. */
  remotes: string[] = [];
  /** While set, a probe waits for it (a server that accepts and never answers). */
  hold: Promise<void> | null = null;
  /** Runs of each kind, in order. */
  readonly runs: string[] = [];
  /** Called as each run starts, before it changes anything: a test looks at the console at every step. */
  beforeRun: ((kind: string) => Promise<void>) | null = null;

  private async check(kind: string): Promise<void> {
    this.runs.push(kind);
    await this.beforeRun?.(kind);
    if (this.failure) throw new RcloneError(this.failure, 'fake remote set to fail');
  }

  async probe(_target: RcloneTarget, _dest: string): Promise<void> {
    if (this.hold) await this.hold;
    await this.check('probe');
  }

  private put(name: string, data: Buffer): void {
    this.files.set(name, data);
    this.uploads.set(name, (this.uploads.get(name) ?? 0) + 1);
  }

  async copyNew(_target: RcloneTarget, sourceDir: string, names: readonly string[], dest: string): Promise<void> {
    await this.check('copy');
    for (const name of names) {
      const data = await readFile(path.join(sourceDir, name));
      const key = remoteJoin(dest, name);
      if (this.files.get(key)?.length !== data.length) this.put(key, data);
    }
  }

  async replace(_target: RcloneTarget, file: string, destFile: string): Promise<void> {
    await this.check('replace');
    this.put(destFile, await readFile(file));
  }

  async remove(_target: RcloneTarget, dest: string, names: readonly string[]): Promise<void> {
    await this.check('remove');
    for (const name of names) this.files.delete(remoteJoin(dest, name));
  }

  async purge(_target: RcloneTarget, dest: string): Promise<void> {
    await this.check('purge');
    for (const key of [...this.files.keys()]) if (key.startsWith(`${dest}/`)) this.files.delete(key);
  }

  async read(_target: RcloneTarget, destFile: string): Promise<string> {
    await this.check('read');
    const data = this.files.get(destFile);
    if (!data) throw new RcloneError('not_found', `${destFile} not found`);
    return data.toString('utf8');
  }

  async removeFile(_target: RcloneTarget, destFile: string): Promise<void> {
    await this.check('removeFile');
    if (!this.files.delete(destFile)) throw new RcloneError('not_found', `${destFile} not found`);
  }

  async listFiles(_target: RcloneTarget, dest: string): Promise<RemoteFile[]> {
    await this.check('list');
    return this.list(dest).map((name) => ({ path: name, size: this.files.get(remoteJoin(dest, name))?.length ?? 0 }));
  }

  listRemotes(_target: RcloneTarget): Promise<string[]> {
    return Promise.resolve([...this.remotes]);
  }

  /** Names under `dest`, relative to it. */
  list(dest: string): string[] {
    return [...this.files.keys()].filter((k) => k.startsWith(`${dest}/`)).map((k) => k.slice(dest.length + 1));
  }
}
