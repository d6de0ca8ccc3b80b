import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync, writeJsonAtomic } from '../../server/core/fs/atomic-write.js';

const tempDir = (): string => mkdtempSync(path.join(os.tmpdir(), 'boothdeck-atomic-'));

describe('atomic file writes', () => {
  it('replaces the content and leaves no temporary file behind', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, '{"old":true}');
    await writeJsonAtomic(file, { new: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ new: true });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('keeps the old content when the write cannot finish', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, 'old');
    await expect(writeFileAtomic(path.join(dir, 'missing-folder', 'config.json'), 'new')).rejects.toThrow();
    // A rename onto a folder fails after the temporary file was written: it must be cleaned up.
    const folder = path.join(dir, 'a-folder');
    (await import('node:fs')).mkdirSync(path.join(folder, 'inside'), { recursive: true });
    await expect(writeFileAtomic(folder, 'new')).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['a-folder', 'config.json']);
  });

  it('writes large content in full, synchronously too', () => {
    const file = path.join(tempDir(), 'big.bin');
    const data = Buffer.alloc(5 * 1024 * 1024, 7);
    writeFileAtomicSync(file, data);
    expect(readFileSync(file).equals(data)).toBe(true);
  });
});
