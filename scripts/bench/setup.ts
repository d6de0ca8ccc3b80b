import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeHardware } from '../../native/hardware.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/database.js';
import { EventRepository } from '../../server/events/event.repository.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { startService, type ServiceHandle, type ServiceOverrides } from '../../server/service.js';
import { FakeSystem } from '../../server/system/system.fake.js';

export const BENCH_PIN = '13579';
const DAY = 86_400_000;

export const tempDir = (name: string): string => mkdtempSync(path.join(os.tmpdir(), `boothdeck-bench-${name}-`));

/** Events opened one after another, one a day, the last one still current. */
export function seedEvents(dataDir: string, count: number, start: number): void {
  const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
  const events = new EventRepository(db);
  for (let i = 0; i < count; i++) events.createCurrent(`evenement-${i + 1}`, `Événement ${i + 1}`, start + i * DAY - 1000);
  db.close();
}

/** The whole service as `npm start` runs it, on the given folders, with the simulator. */
export function startBenchService(dataDir: string, captureDataDir: string, overrides: ServiceOverrides = {}): Promise<ServiceHandle> {
  const config = loadConfig({
    BOOTHDECK_PORT: '0',
    BOOTHDECK_HOST: '127.0.0.1',
    BOOTHDECK_DATA_DIR: dataDir,
    BOOTHDECK_CAPTURE_DATA_DIR: captureDataDir,
    BOOTHDECK_ADMIN_PIN: BENCH_PIN,
    BOOTHDECK_HARDWARE: 'fake',
    // The benches publish to folders of their own under the system's temporary folder.
    BOOTHDECK_PUBLISH_ROOT: os.tmpdir(),
  });
  return startService(config, { system: new FakeSystem(), hardware: createFakeHardware(), log: createRecordingLogger(), ...overrides });
}

export async function adminCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/api/admin/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ pin: BENCH_PIN }),
  });
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** The first rescan of a bench service, which must find the seeded files. */
export async function firstRescan(handle: ServiceHandle): Promise<{ ms: number; files: number; added: number; unchanged: number }> {
  const report = await handle.services.photoSync.rescan();
  if (!report) throw new Error('rescan failed');
  return report;
}
