import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../server/core/secrets/secret-box.js';
import { openDatabase } from '../../server/db/database.js';
import { EventRepository } from '../../server/events/event.repository.js';
import { lockPurpose } from '../../server/publish/publish.repository.js';
import { reveal } from '../../server/publish/rclone-config.js';
import { startTestService, type TestService } from '../support/service.js';

const PIN = '80417263';
const DAV_PASSWORD = 'dav-Pa55-w0rd-1979';

let service: TestService | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await service?.close();
  service = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data folder as an earlier version left it: open to everybody, files 0644. */
function openDataDir(): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-rest-'));
  dirs.push(parent);
  chmodSync(parent, 0o755);
  const dir = path.join(parent, 'data');
  mkdirSync(path.join(dir, 'thumbnails', 'ab'), { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  writeFileSync(path.join(dir, 'thumbnails', 'ab', 'photo.webp'), 'thumb', { mode: 0o644 });
  mkdirSync(path.join(dir, 'rclone'), { mode: 0o755 });
  writeFileSync(path.join(dir, 'rclone', 'boothdeck.conf'), `[boothdeck]\ntype = webdav\npass = x\n`, { mode: 0o644 });
  return dir;
}

/** Every folder and file under `dir` (never through a symlink) with its mode. */
function modes(dir: string): { path: string; mode: number; isDir: boolean }[] {
  const out = [{ path: dir, mode: lstatSync(dir).mode & 0o777, isDir: true }];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(dir, name);
    const st = lstatSync(full);
    if (!st.isSymbolicLink()) out.push({ path: full, mode: st.mode & 0o777, isDir: st.isDirectory() });
  }
  return out;
}

/** Reads a file as the `nobody` user, where this test runs as root; null where it cannot try. */
function readAsNobody(file: string): boolean | null {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/setpriv')) return null;
  const res = spawnSync('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '/bin/cat', file], { encoding: 'utf8' });
  return res.status === 0;
}

describe('the data folder at rest', () => {
  it('is 0700 with every file 0600 after a start, an earlier open folder repaired, and what the service writes after', async () => {
    const dataDir = openDataDir();
    service = await startTestService({ BOOTHDECK_DATA_DIR: dataDir, BOOTHDECK_ADMIN_PIN: PIN });
    const s = service;
    expect((await s.atRest).refused).toEqual([]);
    // Work that writes files: a sign-in, a publishing destination with a password, logs.
    const cookie = String((await request(s.localUrl).post('/api/admin/session').send({ pin: PIN })).headers['set-cookie']).split(';')[0]!;
    const target = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-dav-'));
    dirs.push(target);
    const saved = await request(s.localUrl)
      .put('/api/admin/publish/settings')
      .set('Cookie', cookie)
      .send({
        destination: { type: 'webdav', url: 'http://127.0.0.1:9/dav', vendor: 'other', user: 'booth', path: '', password: DAV_PASSWORD },
      });
    expect(saved.status).toBe(200);
    s.log.info('a line for the log file');

    const open = modes(dataDir).filter((e) => (e.mode & 0o077) !== 0);
    expect(open.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    // The file an earlier version wrote its rclone options in is gone: it lives in the secrets folder now.
    expect(existsSync(path.join(dataDir, 'rclone', 'boothdeck.conf'))).toBe(false);
    const rcloneFile = path.join(dataDir, 'secrets', 'rclone', 'boothdeck.conf');
    expect(readFileSync(rcloneFile, 'utf8')).toMatch(/^pass = /m);
    for (const file of [path.join(dataDir, 'boothdeck.sqlite'), rcloneFile, path.join(dataDir, 'secrets', 'boothdeck.key')]) {
      expect(readAsNobody(file), file).not.toBe(true);
    }
  });
});

describe('a data folder the service cannot keep closed', () => {
  it('is closed where it leads when given as a link', async () => {
    const dataDir = openDataDir();
    const link = path.join(path.dirname(dataDir), 'link-to-data');
    symlinkSync(dataDir, link);
    service = await startTestService({ BOOTHDECK_DATA_DIR: link, BOOTHDECK_ADMIN_PIN: PIN });
    expect((await service.atRest).refused).toEqual([]);
    expect(modes(dataDir).filter((e) => (e.mode & 0o077) !== 0)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('is refused when another user owns it, in a sentence, and nothing is written in it', async () => {
    const dataDir = openDataDir();
    chownSync(dataDir, 65534, 65534);
    await expect(startTestService({ BOOTHDECK_DATA_DIR: dataDir, BOOTHDECK_ADMIN_PIN: PIN })).rejects.toThrow(
      /belongs to another user \(uid 65534\).*Give the folder to the booth's user/,
    );
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o755);
    expect(readdirSync(dataDir).sort()).toEqual(['rclone', 'thumbnails']);
  });
});

describe('secrets in the database', () => {
  it('are sealed, those an earlier version stored in clear included, and no clear copy is left in the file', async () => {
    const dataDir = openDataDir();
    // The database as an earlier version left it: the destination's password and a gallery's key in clear.
    const galleryKey = randomBytes(32);
    const db = openDatabase(path.join(dataDir, 'boothdeck.sqlite'));
    const event = new EventRepository(db).createCurrent('gala', 'Gala', Date.UTC(2026, 10, 22));
    const set = db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)');
    set.run(
      'publish',
      JSON.stringify({
        enabled: false,
        public_base_url: '',
        booth_name: 'b',
        language: 'fr',
        colors: null,
        company_index: null,
        destination: { type: 'webdav', url: 'http://127.0.0.1:9/dav', vendor: 'other', user: 'booth', path: '' },
      }),
      'x',
    );
    set.run('publish.secret', JSON.stringify({ password: DAV_PASSWORD }), 'x');
    db.prepare('INSERT INTO publish_locks (event_id, salt, iterations, key, set_at) VALUES (?, ?, ?, ?, ?)').run(
      event.id,
      randomBytes(16),
      600_000,
      galleryKey,
      1,
    );
    db.close();

    service = await startTestService({ BOOTHDECK_DATA_DIR: dataDir, BOOTHDECK_ADMIN_PIN: PIN });
    const s = service;
    // Still usable: the password went into rclone's file (the secrets folder), the key still seals.
    const rcloneFile = readFileSync(path.join(dataDir, 'secrets', 'rclone', 'boothdeck.conf'), 'utf8');
    expect(reveal(/^pass = (.+)$/m.exec(rcloneFile)![1]!)).toBe(DAV_PASSWORD);
    expect(s.services.publishing.service.settings().destination).toMatchObject({ password_set: true });
    const box = SecretBox.forDataDir(dataDir);
    const row = s.services.ports.db.prepare('SELECT key FROM publish_locks WHERE event_id = ?').get(event.id) as { key: Buffer };
    expect(box.open(lockPurpose(event.id), row.key)?.equals(galleryKey)).toBe(true);
    // Sealed to its own row: moved to another event's, it opens nothing.
    expect(box.open(lockPurpose(event.id + 1), row.key)).toBeUndefined();

    await s.stop();
    const bytes = ['boothdeck.sqlite', 'boothdeck.sqlite-wal']
      .map((f) => path.join(dataDir, f))
      .filter(existsSync)
      .map((f) => readFileSync(f));
    for (const data of bytes) {
      expect(data.includes(Buffer.from(DAV_PASSWORD))).toBe(false);
      expect(data.includes(galleryKey)).toBe(false);
    }
  });

  it('lost with its folder, leave a protected event unpublished rather than sent in the clear', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-lost-'));
    const published = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-published-'));
    dirs.push(dataDir, published);
    const start = () => startTestService({ BOOTHDECK_DATA_DIR: dataDir, BOOTHDECK_ADMIN_PIN: PIN });
    let s = await start();
    const slug = s.services.events.create({ name: 'Soirée privée' }).slug;
    for (let i = 0; i < 2; i++) await s.simulator!.capture();
    await expect.poll(() => s.services.photoRepository.count(), { timeout: 15_000 }).toBe(2);
    await s.services.publishing.service.updateEvent(slug, { password: 'trois petits chats sur le toit' });
    await s.services.publishing.service.update({ destination: { type: 'local', path: published }, booth_name: 'b', enabled: true });
    await s.services.publishing.queue.whenIdle();
    expect(readdirSync(published, { recursive: true }).length).toBeGreaterThan(0);
    await s.stop();

    // A new card with the database alone: the secrets folder is gone, and so is what was online.
    rmSync(path.join(dataDir, 'secrets'), { recursive: true, force: true });
    rmSync(published, { recursive: true, force: true });
    mkdirSync(published);
    service = s = await start();
    s.services.publishing.queue.retryNow();
    await expect.poll(() => s.services.publishing.service.overview().status.state, { timeout: 30_000 }).toBe('waiting');
    // Said to the owner as what to do, not as a cipher's "Invalid key length".
    expect(s.services.publishing.service.overview().status.last_error?.reason).toBe('gallery_key_lost');
    for (const name of readdirSync(published, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(published, name);
      if (lstatSync(file).isDirectory()) continue;
      const data = readFileSync(file);
      expect(data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])), name).toBe(false);
      expect(data.includes(Buffer.from('Soirée')), name).toBe(false);
    }
  });
});
