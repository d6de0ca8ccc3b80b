import { randomBytes } from 'node:crypto';
import { promises as fsp, openSync, writeFileSync, fsyncSync, closeSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';

function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file so that readers see either the old or the new content, never a torn one:
 * temp file in the same folder, fsync, rename over the target, fsync the folder.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const temp = tempNameFor(target);
  const handle = await fsp.open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fsp.rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fsp.rename(temp, target);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
  await fsyncDirectory(path.dirname(target));
}

export function writeFileAtomicSync(target: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = tempNameFor(target);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  renameSync(temp, target);
  const dirFd = openSync(path.dirname(target), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

export async function writeJsonAtomic(target: string, value: unknown): Promise<void> {
  await writeFileAtomic(target, `${JSON.stringify(value, null, 2)}\n`);
}
