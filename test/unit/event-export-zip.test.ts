import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { EventExportService, type ExportPlan } from '../../server/events/event-export.js';
import type { EventService } from '../../server/events/event.service.js';
import type { PhotoRepository } from '../../server/photos/photo.repository.js';
import { readZip } from '../support/zip.js';

/** Python's zipfile checks every CRC and the ZIP64 records: an independent reader. */
function pythonCheck(zipPath: string): { names: string[]; bad: string | null } {
  const script = 'import sys,zipfile,json\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({"names":z.namelist(),"bad":z.testzip()}))';
  const result = spawnSync('python3', ['-c', script, zipPath], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as { names: string[]; bad: string | null };
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const recorded: string[] = [];
const service = (): EventExportService =>
  new EventExportService(
    { recordExport: (_id: number, detail: string) => recorded.push(detail) } as unknown as EventService,
    {} as PhotoRepository,
    os.tmpdir(),
    new FakeClock(Date.UTC(2026, 10, 22, 13, 30)),
  );

/** A plan over real files; a file named in `lost` is never written. */
function planOf(files: { name: string; data: Buffer }[], lost: string[] = []): { plan: ExportPlan; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-zip-'));
  dirs.push(dir);
  const entries = files.map((f, i) => {
    const file = path.join(dir, `src-${i}`);
    if (!lost.includes(f.name)) writeFileSync(file, f.data);
    return { name: f.name, file, size: f.data.length, mtime: Date.UTC(2026, 10, 22, 13, 30, 6) };
  });
  return { plan: { eventId: 1, fileName: 'x.zip', entries, totalBytes: entries.reduce((n, e) => n + e.size, 0) }, dir };
}

async function exportTo(plan: ExportPlan, dir: string, zip64FromBytes?: number): Promise<{ zipPath: string; state: string }> {
  const zipPath = path.join(dir, 'out.zip');
  const state = await service().write(plan, createWriteStream(zipPath), undefined, zip64FromBytes);
  return { zipPath, state: state.state };
}

describe('the ZIP export through archiver', () => {
  it('writes stored entries any reader accepts, with correct CRCs and UTF-8 names, a few files at a time', async () => {
    const files = [
      { name: 'Mariage-Lea-et-Tom_2026-11-22_14-30-05.jpg', data: randomBytes(3 * 1024 * 1024 + 17) },
      { name: 'Fête_été.jpg', data: randomBytes(1000) },
      { name: 'vide.jpg', data: Buffer.alloc(0) },
      { name: 'boomerang.mp4', data: randomBytes(70_000) },
      { name: 'anim.gif', data: randomBytes(5000) },
    ];
    const { plan, dir } = planOf(files);
    const { zipPath, state } = await exportTo(plan, dir);
    expect(state).toBe('done');
    expect(pythonCheck(zipPath)).toEqual({ names: files.map((f) => f.name), bad: null });
    const entries = await readZip(readFileSync(zipPath));
    expect(entries.map((e) => e.method)).toEqual([0, 0, 0, 0, 0]);
    entries.forEach((e, i) => expect(e.data.equals(files[i]!.data)).toBe(true));
  });

  it('uses ZIP64 records for a large event, and stays readable', async () => {
    const files = ['a.jpg', 'b.jpg', 'c.jpg'].map((name, i) => ({ name, data: randomBytes(3000 + i * 2000) }));
    const { plan, dir } = planOf(files);
    const { zipPath } = await exportTo(plan, dir, 4096);
    expect(pythonCheck(zipPath)).toEqual({ names: ['a.jpg', 'b.jpg', 'c.jpg'], bad: null });
    const bytes = readFileSync(zipPath);
    // The ZIP64 end of central directory record.
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
  });

  it('lists the photos whose file vanished in a note inside the ZIP', async () => {
    const files = ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'].map((name) => ({ name, data: randomBytes(2000) }));
    const { plan, dir } = planOf(files, ['b.jpg', 'd.jpg']);
    const { zipPath } = await exportTo(plan, dir);
    expect(pythonCheck(zipPath)).toEqual({ names: ['a.jpg', 'c.jpg', '_fichiers-manquants.txt'], bad: null });
    expect((await readZip(readFileSync(zipPath)))[2]?.data.toString()).toBe('Photos dont le fichier a disparu :\nb.jpg\nd.jpg\n');
  });

  it('sends every byte intact to a slow HTTP client, though the read buffers are reused', async () => {
    // More data than the pool keeps and the socket holds, read slower than the disk gives it:
    // a chunk handed back before the socket took it would show up as another file's bytes.
    const files = Array.from({ length: 12 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(2 * 1024 * 1024 + i * 4099) }));
    const { plan } = planOf(files);
    const server = http.createServer((_req, res) => void service().write(plan, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<Buffer>((resolve, reject) => {
        http.get({ port, host: '127.0.0.1', path: '/' }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => {
            parts.push(chunk);
            // Let the server's socket fill up before taking more.
            res.pause();
            setTimeout(() => res.resume(), 1);
          });
          res.on('end', () => resolve(Buffer.concat(parts)));
          res.on('error', reject);
        });
      });
      const entries = await readZip(body);
      expect(entries.map((e) => e.name)).toEqual(files.map((f) => f.name));
      entries.forEach((e, i) => expect(e.data.equals(files[i]!.data)).toBe(true));
    } finally {
      server.close();
    }
  });

  it('stops when the client goes away, opening nothing more', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(2 * 1024 * 1024) }));
    const { plan } = planOf(files);
    const out = new PassThrough({ highWaterMark: 1024 });
    let received = 0;
    out.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 1024 * 1024) out.destroy();
    });
    const state = await service().write(plan, out);
    expect(state.state).toBe('aborted');
    expect(state.files_done).toBeLessThan(6);
  });
});
