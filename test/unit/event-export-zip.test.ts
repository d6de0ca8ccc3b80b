import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { probeIdleStart, readSchedulingOf, SCHED_IDLE } from '../../server/core/background/own-priority.js';
import { schedulingOnceNode } from '../support/after-exec.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { createBackgroundMedia } from '../../server/media/background-resize.js';
import { publishTasks, publishWork } from '../../server/publish/publish-tasks.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { EventExportService, type ExportPlan } from '../../server/events/event-export.js';
import type { EventService } from '../../server/events/event.service.js';
import type { PhotoRepository } from '../../server/photos/photo.repository.js';
import { readZip } from '../support/zip.js';
import { exportProcesses } from '../support/export-processes.js';

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
const service = (workers: 'processes' | 'in-process' = 'in-process'): EventExportService =>
  new EventExportService(
    { recordExport: (_id: number, detail: string) => recorded.push(detail) } as unknown as EventService,
    {} as PhotoRepository,
    os.tmpdir(),
    new FakeClock(Date.UTC(2026, 10, 22, 13, 30)),
    { workers },
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

async function exportTo(
  plan: ExportPlan,
  dir: string,
  zip64FromBytes?: number,
  workers?: 'processes' | 'in-process',
): Promise<{ zipPath: string; state: string }> {
  const zipPath = path.join(dir, 'out.zip');
  const state = await service(workers).write(plan, createWriteStream(zipPath), undefined, zip64FromBytes);
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

  it.each(['in-process', 'processes'] as const)(
    'sends every byte intact to a slow HTTP client, though the read buffers are reused (%s)',
    async (workers) => {
      // More data than the pool keeps and the socket holds, read slower than the disk gives it:
      // a chunk handed back before the socket took it would show up as another file's bytes.
      const files = Array.from({ length: 12 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(2 * 1024 * 1024 + i * 4099) }));
      const { plan } = planOf(files);
      const server = http.createServer((_req, res) => void service(workers).write(plan, res));
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
    },
  );

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

/** A sink that takes the ZIP slowly, so that the export is still under way when the test looks. */
function slowSink(): PassThrough & { bytes: () => number } {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  let received = 0;
  out.on('data', (chunk: Buffer) => {
    received += chunk.length;
    out.pause();
    setTimeout(() => out.resume(), 5);
  });
  return Object.assign(out, { bytes: () => received });
}

describe('the ZIP export in its own low-priority process', () => {
  it('makes the same ZIP, with the note on missing photos and the export recorded', async () => {
    const files = ['a.jpg', 'b.jpg', 'c.jpg'].map((name, i) => ({ name, data: randomBytes(2 * 1024 * 1024 + i * 999) }));
    const { plan, dir } = planOf(files, ['b.jpg']);
    recorded.length = 0;
    const { zipPath, state } = await exportTo(plan, dir, undefined, 'processes');
    expect(state).toBe('done');
    expect(pythonCheck(zipPath)).toEqual({ names: ['a.jpg', 'c.jpg', '_fichiers-manquants.txt'], bad: null });
    const entries = await readZip(readFileSync(zipPath));
    expect(entries[0]?.data.equals(files[0]!.data)).toBe(true);
    expect(entries[1]?.data.equals(files[2]!.data)).toBe(true);
    expect(recorded).toEqual(['2 photo(s), 1 manquante(s)']);
  });

  it('runs at nice 19 and SCHED_IDLE from its start, and is gone once the client goes away', async () => {
    // As on a booth: the suite runs background work at its own priority (vitest.config.ts).
    process.env.BOOTHDECK_BACKGROUND_PRIORITY = 'lowest';
    onTestFinished(() => void (process.env.BOOTHDECK_BACKGROUND_PRIORITY = 'normal'));
    // The service asks at its start (BackgroundPool) whether chrt may start processes at SCHED_IDLE.
    const idleStart = await probeIdleStart();
    const files = Array.from({ length: 8 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(2 * 1024 * 1024) }));
    const { plan } = planOf(files);
    const out = slowSink();
    const writing = service('processes').write(plan, out);
    // Lowered at the fork: seen without waiting for bytes a process at SCHED_IDLE may not send
    // while another load keeps every core busy.
    await vi.waitFor(() => expect(exportProcesses()).toHaveLength(1), { timeout: 30_000 });
    const [pid] = exportProcesses();
    expect(readSchedulingOf(pid!)?.nice).toBe(19);
    // Where chrt may start it so, Node's own start in it already runs at SCHED_IDLE.
    if (idleStart) expect((await schedulingOnceNode(pid!))?.policy).toBe(SCHED_IDLE);
    out.destroy();
    const state = await writing;
    expect(state.state).toBe('aborted');
    expect(state.files_done).toBeLessThan(8);
    await vi.waitFor(() => expect(exportProcesses()).toEqual([]));
  });

  it('never ends a download as whole when its process dies midway', async () => {
    const files = Array.from({ length: 8 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(2 * 1024 * 1024) }));
    const { plan } = planOf(files);
    const out = slowSink();
    const writing = service('processes').write(plan, out);
    await vi.waitFor(() => expect(out.bytes()).toBeGreaterThan(0), { timeout: 10_000 });
    process.kill(exportProcesses()[0]!, 'SIGKILL');
    await expect(writing).rejects.toThrow(/export process stopped/);
    expect(out.destroyed).toBe(true);
    expect(out.writableFinished).toBe(false);
  });
});

describe('the export process over HTTP, writing to the client itself', () => {
  /** A server answering every request with the plan's ZIP from an export process. */
  async function zipServer(plan: ExportPlan): Promise<{ port: number; close: () => void; outcomes: Promise<string>[] }> {
    const outcomes: Promise<string>[] = [];
    const server = http.createServer((_req, res) => {
      outcomes.push(
        service('processes')
          .write(plan, res)
          .then(
            (s) => s.state,
            (err: Error) => `failed: ${err.message}`,
          ),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, close: () => server.close(), outcomes };
  }

  /** GETs `/` on `agent`; a slow reader when `slow`. Rejects when the body is cut. */
  function download(port: number, agent: http.Agent, onData?: (received: number) => void): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', path: '/', agent }, (res) => {
          const parts: Buffer[] = [];
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            parts.push(chunk);
            received += chunk.length;
            onData?.(received);
          });
          res.on('end', () => resolve(Buffer.concat(parts)));
          res.on('error', reject);
          res.on('aborted', () => reject(new Error('the download was cut')));
        })
        .on('error', reject);
    });
  }

  it('leaves the connection usable: two downloads on one kept-alive connection are both whole', async () => {
    const files = Array.from({ length: 3 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(1024 * 1024 + i) }));
    const { plan } = planOf(files);
    const server = await zipServer(plan);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on('free', (socket) => sockets.add(socket));
    try {
      for (let i = 0; i < 2; i++) {
        const entries = await readZip(await download(server.port, agent));
        entries.forEach((e, j) => expect(e.data.equals(files[j]!.data)).toBe(true));
      }
      expect(sockets.size).toBe(1);
      expect(await Promise.all(server.outcomes)).toEqual(['done', 'done']);
    } finally {
      agent.destroy();
      server.close();
    }
  });

  it('cuts the download visibly when the process dies midway, and ends the process when the client leaves', async () => {
    const files = Array.from({ length: 8 }, (_, i) => ({ name: `${i}.jpg`, data: randomBytes(2 * 1024 * 1024) }));
    const { plan } = planOf(files);
    const server = await zipServer(plan);
    const agent = new http.Agent();
    try {
      let killed = false;
      const cut = download(server.port, agent, (received) => {
        if (received > 1024 * 1024 && !killed) {
          killed = true;
          process.kill(exportProcesses()[0]!, 'SIGKILL');
        }
      });
      await expect(cut).rejects.toThrow();
      expect(await server.outcomes[0]).toMatch(/^failed: the export process stopped/);

      const request = http.get({ port: server.port, host: '127.0.0.1', path: '/', agent }, (res) => {
        res.once('data', () => request.destroy());
      });
      request.on('error', () => undefined);
      await vi.waitFor(() => expect(server.outcomes).toHaveLength(2));
      expect(await server.outcomes[1]).toBe('aborted');
      await vi.waitFor(() => expect(exportProcesses()).toEqual([]));
    } finally {
      agent.destroy();
      server.close();
    }
  });
});

describe('a ZIP whose destination cannot be written', () => {
  it('fails, in-process and in a worker, and the process that asked goes on', async () => {
    const { plan, dir } = planOf([{ name: 'a.jpg', data: randomBytes(200_000) }]);
    const nowhere = path.join(dir, 'no-such-folder', 'event.zip');
    await expect(publishTasks()['zip-files']!({ entries: plan.entries, out: nowhere })).rejects.toThrow(/ENOENT/);
    const media = createBackgroundMedia({ clock: new FakeClock(0), log: createRecordingLogger(), workers: 'processes' });
    try {
      await expect(publishWork((name, input) => media.files.run(name, input)).zip(plan.entries, nowhere)).rejects.toThrow(/ENOENT/);
      // The worker did not die for it: the next task runs in the same one.
      const [pid] = media.files.pids();
      expect(await publishWork((name, input) => media.files.run(name, input)).zip(plan.entries, path.join(dir, 'ok.zip'))).toEqual({
        complete: true,
      });
      expect(media.files.pids()).toEqual([pid]);
    } finally {
      await Promise.all([media.pool.close(), media.files.close()]);
    }
  });
});
