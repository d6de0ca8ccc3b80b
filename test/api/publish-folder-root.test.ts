import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsRepository } from '../../server/settings/settings.repository.js';
import { buildTestApp, signIn } from '../support/app.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = (prefix: string): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** A booth whose owner chose `root` for galleries in folders when installing it. */
async function booth(root: string) {
  const t = await buildTestApp({ publishRoot: root });
  const cookie = await signIn(t.app);
  const save = (p: string) =>
    request(t.app)
      .put('/api/admin/publish/settings')
      .set('Cookie', cookie)
      .send({ destination: { type: 'local', path: p }, booth_name: 'b' });
  const test = (p: string) =>
    request(t.app)
      .post('/api/admin/publish/test')
      .set('Cookie', cookie)
      .send({ destination: { type: 'local', path: p } });
  return { t, save, test, destination: () => t.services.publishing.service.settings().destination };
}

describe('a folder destination', () => {
  it('is refused outside the root the owner chose, at save and at the test, and nothing is written', async () => {
    const root = temp('boothdeck-root-');
    const elsewhere = temp('boothdeck-elsewhere-');
    const b = await booth(root);
    for (const p of ['/', elsewhere, `${root}-sibling`]) {
      const saved = await b.save(p);
      expect(saved.status, p).toBe(400);
      expect(saved.body.error.code).toBe('folder_outside_root');
      expect(saved.body.error.details.issues[0].field).toBe('destination.path');
      const tried = await b.test(p);
      expect(tried.status, p).toBe(400);
      expect(tried.body.error.code).toBe('folder_outside_root');
    }
    expect(b.destination()).toBeNull();
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('is refused through a link inside the root that leads out of it', async () => {
    const root = temp('boothdeck-root-');
    const elsewhere = temp('boothdeck-elsewhere-');
    symlinkSync(elsewhere, path.join(root, 'stick'));
    const b = await booth(root);
    expect((await b.save(path.join(root, 'stick', 'galeries'))).body.error?.code).toBe('folder_outside_root');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('is taken inside the root, a folder not made yet included, and works', async () => {
    const root = temp('boothdeck-root-');
    mkdirSync(path.join(root, 'usb'));
    const b = await booth(root);
    const inside = path.join(root, 'usb', 'galeries');
    expect((await b.save(inside)).status).toBe(200);
    expect(b.destination()).toMatchObject({ type: 'local', path: inside });
    expect((await b.test(inside)).body).toMatchObject({ ok: true });
  });

  it('is refused with .. or as a relative path, and taken under a root not mounted yet', async () => {
    const parent = temp('boothdeck-media-');
    const root = path.join(parent, 'usb');
    const b = await booth(root);
    for (const p of [`${root}/../etc`, `${root}/stick/../../x`, 'galeries', './galeries']) {
      const saved = await b.save(p);
      expect(saved.status, p).toBe(400);
      expect(saved.body.error.details.issues[0].field, p).toBe('destination.path');
    }
    expect(b.destination()).toBeNull();
    // The stick is plugged in later: a folder on it is taken now, and the root's own parent untouched.
    expect((await b.save(path.join(root, 'galeries'))).status).toBe(200);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('saved before the rule outside the root, stops the queue with a reason the console says in words', async () => {
    const root = temp('boothdeck-root-');
    const elsewhere = temp('boothdeck-elsewhere-');
    const b = await booth(root);
    b.t.services.events.create({ name: 'Gala' });
    expect((await b.save(path.join(root, 'galeries'))).status).toBe(200);
    // As an earlier version stored it, outside: no root was checked then.
    const settings = new SettingsRepository(b.t.db);
    const stored = settings.get('publish') as Record<string, unknown>;
    settings.set('publish', { ...stored, destination: { type: 'local', path: elsewhere }, enabled: true });
    const queue = b.t.services.publishing.queue;
    queue.start();
    try {
      await expect
        .poll(
          () => {
            b.t.clock.advance(1000);
            return queue.status().last_error?.reason;
          },
          { timeout: 15_000 },
        )
        .toBe('outside_root');
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      await queue.stop();
    }
  });
});
