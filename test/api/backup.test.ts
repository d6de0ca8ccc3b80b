import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Express } from 'express';
import type { BoothAction } from '../../server/contract/actions.contract.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { RESTART_EXIT_CODE, startService } from '../../server/service.js';
import { loadConfig } from '../../server/config.js';
import { createFakeHardware } from '../../native/hardware.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, signIn, signedInApp } from '../support/app.js';
import { startSimApp } from '../support/sim-app.js';

const state = async (app: Express, cookie: string) => {
  const [settings, presets, actions] = await Promise.all([
    request(app).get('/api/admin/settings').set('Cookie', cookie),
    request(app).get('/api/admin/actions/presets').set('Cookie', cookie),
    request(app).get('/api/admin/actions').set('Cookie', cookie),
  ]);
  return {
    settings: settings.body,
    presets: (presets.body.presets as { name: string; description: string; actions: unknown[] }[]).map((p) => ({
      name: p.name,
      description: p.description,
      actions: p.actions,
    })),
    actions: (actions.body.actions as BoothAction[]).map((a) => a.general.name),
  };
};

describe('backup and restore', () => {
  it('downloads settings, actions and presets as one file and puts them all back', async () => {
    const { t, capture, cookie } = await signedInApp();
    await request(t.app).post('/api/admin/actions/presets').set('Cookie', cookie).send({ name: 'Mariage', description: 'Cadre doré' });
    await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', cookie)
      .send({ print: { quota: 9 }, gallery: { public_url: 'http://booth.local:8080' } });
    const before = await state(t.app, cookie);

    const download = await request(t.app).get('/api/admin/backup').set('Cookie', cookie);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="boothdeck-backup-\d{8}-\d{4}\.json"$/);
    expect(download.body).toMatchObject({ format: 'boothdeck-backup', version: 1 });
    const file = JSON.stringify(download.body);

    const presetId = (await request(t.app).get('/api/admin/actions/presets').set('Cookie', cookie)).body.presets[0].id as number;
    await request(t.app).delete(`/api/admin/actions/presets/${presetId}`).set('Cookie', cookie);
    await request(t.app).post('/api/admin/actions/presets').set('Cookie', cookie).send({ name: 'Autre' });
    await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', cookie)
      .send({ print: { quota: 1 }, gallery: { show_delete: false } });
    await request(t.app).delete('/api/admin/actions/0').set('Cookie', cookie);
    expect(await state(t.app, cookie)).not.toEqual(before);

    const restore = await request(t.app).post('/api/admin/backup').set('Cookie', cookie).set('Content-Type', 'application/json').send(file);
    expect(restore.status).toBe(200);
    expect(restore.body).toEqual({ restored: { actions: before.actions.length, presets: 1, not_kept: [] } });
    expect(await state(t.app, cookie)).toEqual(before);
    expect(capture.config.uisettings).toMatchObject({ gallery_show_delete: true });
  });

  it('names a setting the capture app did not keep while restoring, and keeps what the capture app holds', async () => {
    const t = await startSimApp();
    try {
      const put = (body: object) => request(t.app).put('/api/admin/settings').set('Cookie', t.cookie).send(body);
      expect((await put({ gallery: { show_delete: false } })).status).toBe(200);
      const file = JSON.stringify((await request(t.app).get('/api/admin/backup').set('Cookie', t.cookie)).body);
      expect((await put({ gallery: { show_delete: true } })).status).toBe(200);
      // A capture-app release that does not know the delete-button setting.
      t.sim.dropKeys(['uisettings.gallery_show_delete']);
      const restore = await request(t.app)
        .post('/api/admin/backup')
        .set('Cookie', t.cookie)
        .set('Content-Type', 'application/json')
        .send(file);
      expect(restore.status).toBe(200);
      expect(restore.body.restored.not_kept).toEqual([{ index: null, field: 'gallery.show_delete', known: true, outcome: 'dropped' }]);
      const after = await request(t.app).get('/api/admin/settings').set('Cookie', t.cookie);
      expect(after.body.gallery.show_delete).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('refuses a bad file whole, says what is wrong, and changes nothing', async () => {
    const { t, capture, cookie } = await signedInApp();
    await request(t.app).post('/api/admin/actions/presets').set('Cookie', cookie).send({ name: 'Mariage' });
    const good = (await request(t.app).get('/api/admin/backup').set('Cookie', cookie)).body as Record<string, unknown>;
    const before = await state(t.app, cookie);
    const writes = capture.configWrites;

    const bad = structuredClone(good) as { settings: { print: { quota: number } }; actions: { kind: string }[]; presets: unknown[] };
    bad.settings.print.quota = -3;
    bad.presets = [];
    (bad.actions[1] as { kind: string }).kind = 'hologram';
    const res = await request(t.app).post('/api/admin/backup').set('Cookie', cookie).send(bad);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toContain('settings.print.quota');
    expect(res.body.error.message).toContain('actions.1.kind');

    const other = await request(t.app).post('/api/admin/backup').set('Cookie', cookie).send({ hello: 'world' });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain('not a Boothdeck backup');

    const notJson = await request(t.app)
      .post('/api/admin/backup')
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .send('{"format":');
    expect(notJson.status).toBe(400);

    expect(await state(t.app, cookie)).toEqual(before);
    expect(capture.configWrites).toBe(writes);
    expect((await request(t.app).post('/api/admin/backup').send(good)).status).toBe(401);
  });
});

describe('backup size', () => {
  it('takes a backup larger than the 64 kB of other requests, from a signed-in operator only', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    const backup = (await request(t.app).get('/api/admin/backup').set('Cookie', cookie)).body as { presets: unknown[]; actions: unknown[] };
    backup.presets = Array.from({ length: 60 }, (_, i) => ({
      name: `Préréglage ${i}`,
      description: 'x'.repeat(400),
      created_at: '2026-11-22T12:00:00.000Z',
      actions: backup.actions,
    }));
    const body = JSON.stringify(backup);
    expect(body.length).toBeGreaterThan(64 * 1024);
    const anonymous = await request(t.app).post('/api/admin/backup').set('Content-Type', 'application/json').send(body);
    expect(anonymous.status).toBe(401);
    const res = await request(t.app).post('/api/admin/backup').set('Cookie', cookie).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    expect(res.body.restored.presets).toBe(60);
    const other = await request(t.app).put('/api/admin/settings').set('Cookie', cookie).set('Content-Type', 'application/json').send(body);
    expect(other.status).toBe(413);
  });
});

describe('restart of the headless service', () => {
  it('stops the service cleanly, then exits with a non-zero code for its supervisor', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-restart-'));
    const config = loadConfig({
      BOOTHDECK_PORT: '0',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_DATA_DIR: dataDir,
      BOOTHDECK_ADMIN_PIN: '1234',
    });
    let url = '';
    const exited = new Promise<number>((resolve) => {
      void startService(config, {
        capture: new FakeCaptureApp(),
        system: new FakeSystem(),
        hardware: createFakeHardware(),
        log: createRecordingLogger(),
        exit: resolve,
      }).then(async (handle) => {
        url = handle.localUrl;
        const session = await fetch(`${handle.localUrl}/api/admin/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ pin: '1234' }),
        });
        const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const res = await fetch(`${handle.localUrl}/api/admin/system/restart-boothdeck`, { method: 'POST', headers: { Cookie: cookie } });
        expect(res.status).toBe(202);
      });
    });
    expect(await exited).toBe(RESTART_EXIT_CODE);
    // By the time it exits, the service no longer listens.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
