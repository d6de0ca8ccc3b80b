import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoredZipWriter } from '../../server/events/zip-writer.js';
import { readZip } from '../support/zip.js';

/** Python's zipfile checks every CRC and the ZIP64 records: an independent reader. */
function pythonCheck(zipPath: string): { names: string[]; bad: string | null } {
  const script = 'import sys,zipfile,json\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({"names":z.namelist(),"bad":z.testzip()}))';
  const result = spawnSync('python3', ['-c', script, zipPath], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as { names: string[]; bad: string | null };
}

async function build(files: { name: string; data: Buffer }[], threshold?: number): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-zip-'));
  const zipPath = path.join(dir, 'out.zip');
  const out = createWriteStream(zipPath);
  const zip = new StoredZipWriter(out, threshold);
  for (const [i, f] of files.entries()) {
    const file = path.join(dir, `src-${i}`);
    writeFileSync(file, f.data);
    const handle = await open(file, 'r');
    await zip.addFile(f.name, new Date(2026, 10, 22, 14, 30, 6), handle);
    await handle.close();
  }
  await zip.finish();
  return zipPath;
}

/**
 * Walks the archive from the start, as a streaming reader does: each local header, its data,
 * then its data descriptor, whose CRC and sizes must match the central directory's.
 */
function walkLocalRecords(zip: Buffer, central: { name: string; crc: number; size: number }[], zip64: boolean[]): void {
  let at = 0;
  central.forEach((entry, i) => {
    expect(zip.readUInt32LE(at)).toBe(0x04034b50);
    expect(zip.readUInt16LE(at + 6) & 0x0808).toBe(0x0808);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    expect(zip.subarray(at + 30, at + 30 + nameLength).toString('utf8')).toBe(entry.name);
    if (zip64[i]) expect(zip.readUInt16LE(at + 30 + nameLength)).toBe(0x0001);
    at += 30 + nameLength + extraLength + entry.size;
    expect(zip.readUInt32LE(at)).toBe(0x08074b50);
    expect(zip.readUInt32LE(at + 4)).toBe(entry.crc);
    const size = zip64[i] ? Number(zip.readBigUInt64LE(at + 8)) : zip.readUInt32LE(at + 8);
    expect(size).toBe(entry.size);
    at += zip64[i] ? 24 : 16;
  });
  expect(zip.readUInt32LE(at)).toBe(0x02014b50);
}

function centralOf(zipPath: string): { name: string; crc: number; size: number }[] {
  const script =
    'import sys,zipfile,json\nprint(json.dumps([[i.filename,i.CRC,i.file_size] for i in zipfile.ZipFile(sys.argv[1]).infolist()]))';
  const result = spawnSync('python3', ['-c', script, zipPath], { encoding: 'utf8' });
  return (JSON.parse(result.stdout) as [string, number, number][]).map(([name, crc, size]) => ({ name, crc, size }));
}

describe('the stored ZIP writer', () => {
  it('writes entries any reader accepts, with correct CRCs, stored and UTF-8 named', async () => {
    const files = [
      { name: 'Mariage-Lea-et-Tom_2026-11-22_14-30-05.jpg', data: randomBytes(3 * 1024 * 1024 + 17) },
      { name: 'Fête_été.jpg', data: randomBytes(1000) },
      { name: 'vide.txt', data: Buffer.alloc(0) },
    ];
    const zipPath = await build(files);
    expect(pythonCheck(zipPath)).toEqual({ names: files.map((f) => f.name), bad: null });
    const bytes = readFileSync(zipPath);
    const entries = await readZip(bytes);
    expect(entries.map((e) => e.method)).toEqual([0, 0, 0]);
    entries.forEach((e, i) => expect(e.data.equals(files[i]!.data)).toBe(true));
    walkLocalRecords(bytes, centralOf(zipPath), [false, false, false]);
  });

  it('switches to ZIP64 records past the limit, and stays readable', async () => {
    const files = [
      { name: 'a.jpg', data: randomBytes(5000) },
      { name: 'b.jpg', data: randomBytes(300) },
      { name: 'c.jpg', data: randomBytes(7000) },
    ];
    const zipPath = await build(files, 4096);
    expect(pythonCheck(zipPath)).toEqual({ names: ['a.jpg', 'b.jpg', 'c.jpg'], bad: null });
    walkLocalRecords(readFileSync(zipPath), centralOf(zipPath), [true, false, true]);
  });
});
