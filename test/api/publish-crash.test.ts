import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../server/capture/simulator/simulator.server.js';
import { openDatabase } from '../../server/db/database.js';
import { EventRepository } from '../../server/events/event.repository.js';
import { SettingsRepository } from '../../server/settings/settings.repository.js';
import { startTestSimulator } from '../support/simulator.js';

const repo = path.resolve(import.meta.dirname, '../..');
const PHOTOS = 16;
let sim: SimulatorHandle | undefined;
let child: ChildProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  await sim?.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (name: string): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), name));
  dirs.push(dir);
  return dir;
};

/** The service in its own process group, so that a kill takes its rclone with it, as a power cut would. */
function startBooth(dataDir: string, s: SimulatorHandle): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'test/support/publish-child.ts')], {
    cwd: repo,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      BOOTHDECK_DATA_DIR: dataDir,
      BOOTHDECK_PORT: '0',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_CAPTURE_URL: s.url,
      BOOTHDECK_CAPTURE_DATA_DIR: s.dataDir,
      BOOTHDECK_HARDWARE: 'fake',
      PUBLISH_BATCH: '1',
    },
  });
}

/** Polls a condition on the remote folder (another process writes it: there is no event to wait on). */
async function until<T>(look: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = look();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the remote');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const mediaOnline = (root: string): string[] => {
  const booth = path.join(root, 'booth');
  if (!existsSync(booth)) return [];
  const token = readdirSync(booth)[0];
  const media = token ? path.join(booth, token, 'media') : '';
  return media && existsSync(media) ? readdirSync(media) : [];
};

it('killed with -9 during an upload, then restarted: every photo is online exactly once, whole', { timeout: 90_000 }, async () => {
  sim = await startTestSimulator();
  const dataDir = tempDir('boothdeck-crash-');
  const root = tempDir('boothdeck-remote-');
  const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
  new EventRepository(db).createCurrent('fete', 'Fête', Date.now() - 60_000);
  new SettingsRepository(db).set('publish', {
    enabled: true,
    remote: root,
    booth_name: 'booth',
    public_base_url: '',
    config: 'boothdeck',
    language: 'fr',
  });
  db.close();
  const items = [];
  for (let i = 0; i < PHOTOS; i++) items.push(await sim.capture());

  child = startBooth(dataDir, sim);
  const before = await until(() => {
    const n = mediaOnline(root).length;
    return n >= 3 ? n : undefined;
  }, 45_000);
  process.kill(-(child.pid ?? 0), 'SIGKILL');
  expect(before).toBeLessThan(PHOTOS);

  child = startBooth(dataDir, sim);
  await until(() => {
    const booth = path.join(root, 'booth');
    const token = readdirSync(booth)[0] ?? '';
    const index = path.join(booth, token, 'index.html');
    if (!existsSync(index)) return undefined;
    return (readFileSync(index, 'utf8').match(/data-testid="photo-tile"/g) ?? []).length === PHOTOS ? true : undefined;
  }, 60_000);
  process.kill(-(child.pid ?? 0), 'SIGKILL');

  const media = mediaOnline(root);
  expect(media).toHaveLength(PHOTOS);
  const folder = path.join(root, 'booth', readdirSync(path.join(root, 'booth'))[0] ?? '');
  for (const item of items) {
    const stem = path.basename(item.processed, path.extname(item.processed));
    const names = media.filter((n) => n.startsWith(stem));
    expect(names).toHaveLength(1);
    expect(readFileSync(path.join(folder, 'media', names[0] ?? ''))).toEqual(readFileSync(path.join(sim.dataDir, item.processed)));
  }
  expect(readdirSync(path.join(folder, 'thumbs'))).toHaveLength(PHOTOS);
});
