import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeHardware } from '../../native/hardware.js';
import { loadConfig } from '../../server/config.js';
import type { PrintCarryOver } from '../../server/contract/carry-over.contract.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { openDatabase } from '../../server/db/database.js';
import { carryOverPrintJobs } from '../../server/print/print-carry-over.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { startService } from '../../server/service.js';
import { startTestSimulator } from '../support/simulator.js';
import { FakeSystem } from '../../server/system/system.fake.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NOW = Date.parse('2026-11-26T18:00:00Z');
const clock = new FakeClock(NOW);

/** A data folder whose database a release left (migrated, with one event), and a rollback's carry-over in it. */
function restoredFolder(carry: Partial<PrintCarryOver> = {}): { dataDir: string; file: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-carry-'));
  dirs.push(dataDir);
  const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
  db.prepare("INSERT INTO events (id, slug, name, created_at) VALUES (3, 'soiree', 'Soirée', 1000)").run();
  db.close();
  mkdirSync(path.join(dataDir, 'carry-over'));
  const file = path.join(dataDir, 'carry-over/print-jobs-rollback-1.json');
  const body: PrintCarryOver = {
    written_at: new Date(NOW - 60_000).toISOString(),
    run: 'rollback-1',
    jobs: [
      {
        photo_id: 'photo-42',
        copies: 2,
        source: 'guest',
        session_id: 'guest-1',
        event_id: 3,
        state: 'queued',
        created_at: 5000,
        queued_at: 5000,
        started_at: null,
        cups_job_id: null,
        client_address: '10.0.0.9',
      },
      {
        photo_id: 'photo-43',
        copies: 1,
        source: 'admin',
        session_id: null,
        event_id: 99,
        state: 'printing',
        created_at: 6000,
        queued_at: 6000,
        started_at: 6100,
        cups_job_id: 'PDF-7',
        client_address: null,
      },
    ],
    sessions: [{ id: 'guest-1', created_at: 4000, copies_used: 2 }],
    ...carry,
  };
  writeFileSync(file, JSON.stringify(body));
  return { dataDir, file };
}

const jobsIn = (dataDir: string): Record<string, unknown>[] => {
  const db = new Database(path.join(dataDir, 'boothdeck.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT photo_id, copies, source, session_id, event_id, state, cups_job_id, client_address FROM print_jobs ORDER BY created_at',
      )
      .all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

describe('print jobs carried into a database a rollback restored', () => {
  it('queues them again once, handed-to-CUPS ones to be settled with CUPS, their guest session still spent', () => {
    const { dataDir, file } = restoredFolder();
    const log = createRecordingLogger();
    const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
    carryOverPrintJobs(db, dataDir, clock, log);
    expect(existsSync(file)).toBe(false);
    // A second read (a crash between the commit and the file's removal) adds nothing.
    writeFileSync(file, JSON.stringify({ written_at: new Date(NOW).toISOString(), run: 'again', jobs: [], sessions: [] }));
    carryOverPrintJobs(db, dataDir, clock, log);
    expect((db.prepare("SELECT copies_used FROM guest_sessions WHERE id = 'guest-1'").get() as { copies_used: number }).copies_used).toBe(
      2,
    );
    db.close();
    expect(jobsIn(dataDir)).toEqual([
      {
        photo_id: 'photo-42',
        copies: 2,
        source: 'guest',
        session_id: 'guest-1',
        event_id: 3,
        state: 'queued',
        cups_job_id: null,
        client_address: '10.0.0.9',
      },
      // Its event was made under the release rolled back: not in this database.
      {
        photo_id: 'photo-43',
        copies: 1,
        source: 'admin',
        session_id: null,
        event_id: null,
        state: 'printing',
        cups_job_id: 'PDF-7',
        client_address: null,
      },
    ]);
    expect(log.lines.some((l) => l.includes('Queued again 2 print job(s) carried over by the rollback rollback-1'))).toBe(true);
  });

  it('a job the restored database still has waiting but that was printed or handed to CUPS under the release rolled back takes that state: never printed twice, even read again', () => {
    const { dataDir, file } = restoredFolder({
      jobs: [],
      sessions: [],
      settled: [
        {
          photo_id: 'photo-40',
          created_at: 4000,
          copies: 1,
          state: 'done',
          started_at: 4100,
          finished_at: 4200,
          cups_job_id: 'PDF-5',
          error: null,
        },
        {
          photo_id: 'photo-41',
          created_at: 4500,
          copies: 1,
          state: 'printing',
          started_at: 4600,
          finished_at: null,
          cups_job_id: 'PDF-6',
          error: null,
        },
      ],
    });
    const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
    // As the snapshot had them: both still queued.
    const queue = db.prepare(
      "INSERT INTO print_jobs (photo_id, copies, source, state, created_at, queued_at, updated_at) VALUES (?, 1, 'admin', 'queued', ?, ?, ?)",
    );
    queue.run('photo-40', 4000, 4000, 4000);
    queue.run('photo-41', 4500, 4500, 4500);
    const text = readFileSync(file, 'utf8');
    const log = createRecordingLogger();
    carryOverPrintJobs(db, dataDir, clock, log);
    writeFileSync(file, text);
    carryOverPrintJobs(db, dataDir, clock, log);
    db.close();
    expect(jobsIn(dataDir).map((j) => [j.photo_id, j.state, j.cups_job_id])).toEqual([
      ['photo-40', 'done', 'PDF-5'],
      // Settled with CUPS by its job id before anything is resent, as after a crash.
      ['photo-41', 'printing', 'PDF-6'],
    ]);
    expect(
      log.lines.some((l) => l.includes('2 print job(s) the restored database still had waiting were printed or ended meanwhile')),
    ).toBe(true);
  });

  it('never adds a job twice when the same carry-over is read again', () => {
    const { dataDir, file } = restoredFolder();
    const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
    const text = readFileSync(file, 'utf8');
    carryOverPrintJobs(db, dataDir, clock, createRecordingLogger());
    writeFileSync(file, text);
    carryOverPrintJobs(db, dataDir, clock, createRecordingLogger());
    db.close();
    expect(jobsIn(dataDir)).toHaveLength(2);
  });

  it('does not print blindly a carry-over found long after (a release that did not read it, then a newer one): set aside and said', () => {
    const { dataDir, file } = restoredFolder({ written_at: new Date(NOW - 2 * 86_400_000).toISOString() });
    const log = createRecordingLogger();
    const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
    carryOverPrintJobs(db, dataDir, clock, log);
    db.close();
    expect(jobsIn(dataDir)).toEqual([]);
    expect(existsSync(`${file}.old`)).toBe(true);
    expect(log.lines.some((l) => l.includes('were written 48 h ago: not printed blindly'))).toBe(true);
  });

  it('leaves a malformed carry-over where it is, and says so, changing nothing', () => {
    const { dataDir, file } = restoredFolder();
    writeFileSync(file, '{"written_at":"yesterday","jobs":[{"photo_id":"x"}]}');
    const log = createRecordingLogger();
    const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
    carryOverPrintJobs(db, dataDir, clock, log);
    db.close();
    expect(existsSync(file)).toBe(true);
    expect(jobsIn(dataDir)).toEqual([]);
  });

  it('the release that starts on the restored database queues them before its print worker starts', async () => {
    const { dataDir, file } = restoredFolder({ written_at: new Date().toISOString() });
    const config = loadConfig({
      BOOTHDECK_PORT: '0',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_DATA_DIR: dataDir,
      BOOTHDECK_CAPTURE_URL: 'simulator',
    });
    const handle = await startService(config, {
      system: new FakeSystem(),
      hardware: createFakeHardware(),
      log: createRecordingLogger(),
      printer: new FakePrinter(),
    });
    await handle.stop();
    expect(existsSync(file)).toBe(false);
    expect(jobsIn(dataDir).map((j) => j.photo_id)).toEqual(['photo-42', 'photo-43']);
  });
});

describe('photos taken under a release that was rolled back', () => {
  it('are found again by the index when the restored release starts: its rescan reads the capture app folder', async () => {
    const sim = await startTestSimulator();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-restored-'));
    dirs.push(dataDir, sim.dataDir);
    const config = loadConfig({
      BOOTHDECK_PORT: '0',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_DATA_DIR: dataDir,
      BOOTHDECK_CAPTURE_URL: sim.url,
      BOOTHDECK_CAPTURE_DATA_DIR: sim.dataDir,
    });
    const start = () =>
      startService(config, {
        system: new FakeSystem(),
        hardware: createFakeHardware(),
        log: createRecordingLogger(),
        printer: new FakePrinter(),
      });
    const db = path.join(dataDir, 'boothdeck.sqlite');
    const photos = (): number => {
      const reader = new Database(db, { readonly: true });
      try {
        return (reader.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n;
      } finally {
        reader.close();
      }
    };
    const until = async (check: () => boolean): Promise<void> => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(check()).toBe(true);
    };
    try {
      let booth = await start();
      await sim.capture('before');
      await until(() => photos() === 1);
      await booth.stop();
      // The snapshot a deploy takes with the release leaving stopped.
      const snapshot = readFileSync(db);
      booth = await start();
      await sim.capture('under the new release');
      await sim.capture('under the new release, again');
      await until(() => photos() === 3);
      await booth.stop();
      // The rollback puts the snapshot back: the index forgot two photos.
      for (const f of ['-wal', '-shm']) rmSync(`${db}${f}`, { force: true });
      writeFileSync(db, snapshot);
      expect(photos()).toBe(1);
      booth = await start();
      await until(() => photos() === 3);
      await booth.stop();
    } finally {
      await sim.stop();
    }
  });
});
