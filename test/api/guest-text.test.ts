import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { hasNoControl } from '../../server/core/util/text.js';
import { signedInApp, type TestApp } from '../support/app.js';

let t: TestApp;
let capture: FakeCaptureApp;
let cookie: string;
beforeEach(async () => {
  ({ t, capture, cookie } = await signedInApp());
});

const post = (path: string, body: unknown) =>
  request(t.app)
    .post(path)
    .set('Cookie', cookie)
    .send(body as object);
const HOSTILE = ['Bienvenue\u0000', 'Bien\u001b[31mvenue', 'ding\u0007', 'deux\nlignes', 'exe.\u202egnp', 'a\u2066b', 'x\u2028y', '\ud800'];

interface Backup {
  actions: { kind: string; entry: Record<string, unknown> }[];
  presets: { name: string; description: string; created_at: string; actions: unknown[] }[];
}

describe('text that reaches people refuses control characters', () => {
  it('refuses an event welcome with NUL, ESC, BEL, a line break or a right-to-left override, and creates nothing', async () => {
    for (const welcome of HOSTILE) {
      const res = await post('/api/admin/events', { name: 'Gala', welcome });
      expect(res.status, JSON.stringify(welcome)).toBe(400);
      expect(res.body.error.message).toContain('welcome');
    }
    expect((await request(t.app).get('/api/admin/events').set('Cookie', cookie)).body.events).toHaveLength(0);
    expect((await post('/api/admin/events', { name: 'Gala', welcome: 'Bienvenue à la fête 🎉' })).status).toBe(201);
  });

  it('refuses the override in names and titles too', async () => {
    expect((await post('/api/admin/events', { name: 'exe.\u202egnp' })).status).toBe(400);
    expect((await post('/api/admin/actions/presets', { name: 'a\u202eb' })).status).toBe(400);
    const res = await request(t.app).put('/api/admin/actions/0').set('Cookie', cookie).send({ 'ui_trigger.title': 'a\u202eb' });
    expect(res.status).toBe(400);
  });

  it('keeps what languages and emoji need: accents, right-to-left marks, joiners', () => {
    for (const ok of ['Soirée d’été', 'مرحبا\u200f', '👩‍👩‍👧 Famille', 'שלום']) expect(hasNoControl(ok), ok).toBe(true);
  });
});

describe('backup restore', () => {
  const backupOf = async (): Promise<Backup> => (await request(t.app).get('/api/admin/backup').set('Cookie', cookie)).body as Backup;

  it('refuses control characters in presets and dates, and changes nothing', async () => {
    await post('/api/admin/actions/presets', { name: 'Mariage' });
    const good = await backupOf();
    const writes = capture.configWrites;
    for (const patch of [
      (b: Backup) => ((b.presets[0] as Backup['presets'][0]).name = 'Mar\u001biage'),
      (b: Backup) => ((b.presets[0] as Backup['presets'][0]).name = 'exe.\u202egnp'),
      (b: Backup) => ((b.presets[0] as Backup['presets'][0]).description = 'ding\u0007'),
      (b: Backup) => ((b.presets[0] as Backup['presets'][0]).created_at = 'hier\u0000'),
    ]) {
      const bad = structuredClone(good);
      patch(bad);
      const res = await post('/api/admin/backup', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect(capture.configWrites).toBe(writes);
    expect((await request(t.app).get('/api/admin/actions/presets').set('Cookie', cookie)).body.presets[0].name).toBe('Mariage');
  });

  it('carries only the fields Boothdeck maps to the capture app, never a font path or a part’s image', async () => {
    await post('/api/admin/actions/presets', { name: 'Mariage' });
    const file = await backupOf();
    const hostile = (entry: Record<string, unknown>): void => {
      const processing = (entry.processing ?? {}) as Record<string, unknown>;
      processing.texts = [{ text: 'hello', font: '../../../../etc/passwd' }];
      processing.img_background_file_unmapped = '/etc/shadow';
      entry.processing = processing;
      entry.secret_hook = { command: 'rm -rf /' };
    };
    file.actions.forEach((a) => hostile(a.entry));
    (file.presets[0]?.actions as { entry: Record<string, unknown> }[]).forEach((a) => hostile(a.entry));
    const res = await post('/api/admin/backup', file);
    expect(res.status).toBe(200);
    const written = JSON.stringify(capture.config);
    expect(written).not.toContain('/etc/passwd');
    expect(written).not.toContain('/etc/shadow');
    expect(written).not.toContain('secret_hook');
    // The preset keeps none of it either: restoring it later cannot bring it back.
    const preset = (await request(t.app).get('/api/admin/actions/presets').set('Cookie', cookie)).body.presets[0] as { id: number };
    expect((await post(`/api/admin/actions/presets/${preset.id}/restore`, {})).status).toBe(200);
    expect(JSON.stringify(capture.config)).not.toContain('/etc/passwd');
  });

  it('checks the capture app’s file paths as the console’s editor does', async () => {
    const file = await backupOf();
    const writes = capture.configWrites;
    const image = file.actions.find((a) => a.kind === 'image') as Backup['actions'][0];
    (image.entry.processing as Record<string, unknown>).img_frame_file = '../../../../etc/passwd';
    const res = await post('/api/admin/backup', file);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('frame.file');
    expect(capture.configWrites).toBe(writes);
  });
});
