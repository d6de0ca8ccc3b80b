import { rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BoothAction } from '../../server/contract/actions.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp;
beforeEach(async () => {
  t = await startSimApp();
});
afterEach(async () => {
  await t.close();
});

const call = (method: 'get' | 'post' | 'put' | 'delete', p: string, body?: object) =>
  request(t.app)[method](`/api/admin/actions${p}`).set('Cookie', t.cookie).send(body);
const names = async (): Promise<string[]> => ((await call('get', '')).body.actions as BoothAction[]).map((a) => a.general.name);

describe('action presets', () => {
  it('saves the current list under a name, lists it, restores it after changes, deletes it', async () => {
    const saved = await call('post', '/presets', { name: 'Mariage', description: 'Cadre doré, pas de vidéo' });
    expect(saved.status).toBe(201);
    expect(saved.body.preset).toMatchObject({
      id: expect.any(Number),
      name: 'Mariage',
      description: 'Cadre doré, pas de vidéo',
      actions: [
        { name: 'Photo simple', kind: 'image' },
        { name: 'Collage', kind: 'collage' },
        { name: 'Animation', kind: 'animation' },
        { name: 'Video', kind: 'video' },
      ],
    });
    const id = saved.body.preset.id as number;

    expect((await call('get', '/presets')).body.presets).toEqual([saved.body.preset]);

    await call('delete', '/3');
    await call('put', '/reorder', { order: [2, 1, 0] });
    await call('put', '/0', { 'ui_trigger.title': 'Changed' });
    expect(await names()).toEqual(['Animation', 'Collage', 'Photo simple']);

    const restored = await call('post', `/presets/${id}/restore`);
    expect(restored.status).toBe(200);
    expect((restored.body.actions as BoothAction[]).map((a) => a.general.name)).toEqual(['Photo simple', 'Collage', 'Animation', 'Video']);
    expect(await names()).toEqual(['Photo simple', 'Collage', 'Animation', 'Video']);
    expect((await t.restartFinished()).state).toBe('done');

    expect((await call('delete', `/presets/${id}`)).status).toBe(204);
    expect((await call('get', '/presets')).body.presets).toEqual([]);
    expect((await call('delete', `/presets/${id}`)).status).toBe(404);
  });

  it('refuses a second preset of the same name with 409', async () => {
    expect((await call('post', '/presets', { name: 'Soirée' })).status).toBe(201);
    const again = await call('post', '/presets', { name: 'soirée' });
    expect(again.status).toBe(409);
    expect((await call('get', '/presets')).body.presets).toHaveLength(1);
  });

  it.each([{}, { name: '' }, { name: 'x'.repeat(61) }, { name: 'ok', description: 5 }, { name: 'ok', extra: true }])(
    'refuses %j with 400',
    async (body) => {
      expect((await call('post', '/presets', body)).status).toBe(400);
      expect((await call('get', '/presets')).body.presets).toEqual([]);
    },
  );

  it('answers 404 for an unknown preset, 400 for an id that is not one', async () => {
    expect((await call('post', '/presets/999/restore')).status).toBe(404);
    expect((await call('delete', '/presets/999')).status).toBe(404);
    expect((await call('post', '/presets/abc/restore')).status).toBe(400);
  });

  it('refuses to restore a preset whose frame no longer exists, with the reason, and changes nothing', async () => {
    const { body } = await call('post', '/presets', { name: 'Ancien cadre' });
    rmSync(path.join(t.sim.dataDir, 'userdata', 'demoassets', 'frames', 'frame_image_photobooth-app.png'));
    await call('delete', '/0');
    const before = await names();
    const res = await call('post', `/presets/${body.preset.id}/restore`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('action 1: frame.file');
    expect(await names()).toEqual(before);
  });
});

describe('settings that reach the capture app', () => {
  it('writes the gallery delete button into the capture app and restarts it', async () => {
    const res = await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ gallery: { show_delete: false } });
    expect(res.status).toBe(200);
    expect(res.body.gallery.show_delete).toBe(false);
    expect(((await t.client.getConfig()).uisettings as Record<string, unknown>).gallery_show_delete).toBe(false);
    expect(await t.restartFinished()).toMatchObject({ state: 'done', reasons: ['gallery settings'] });
    expect(t.sim.state().restarts).toBe(1);
    const read = await request(t.app).get('/api/admin/settings').set('Cookie', t.cookie);
    expect(read.body).toMatchObject({ gallery: { show_delete: false }, print: { enable: true }, hardware: { relay: { inverted: false } } });
  });

  it('does not restart anything for settings the capture app does not hold', async () => {
    const res = await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ print: { quota: 8 } });
    expect(res.status).toBe(200);
    expect(res.body.print.quota).toBe(8);
    expect(t.services.restarter.status().state).toBe('idle');
  });

  it.each([
    [{ print: { quota: -1 } }, 'print.quota'],
    [{ hardware: { flash: { preflash_seconds: 4 } } }, 'hardware.flash.preflash_seconds'],
    [{ gallery: { show_delete: 'no' } }, 'gallery.show_delete'],
    [{ gallery: { public_url: 'ftp://x' } }, 'gallery.public_url'],
    [{ printer: {} }, 'printer: unknown field'],
  ])('refuses %j with 400 naming the field, and stores nothing', async (body, field) => {
    const before = (await request(t.app).get('/api/admin/settings').set('Cookie', t.cookie)).body;
    const res = await request(t.app).put('/api/admin/settings').set('Cookie', t.cookie).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect((await request(t.app).get('/api/admin/settings').set('Cookie', t.cookie)).body).toEqual(before);
  });
});

describe('userdata files for frames and backgrounds', () => {
  it('says which files are frames with transparency and which are opaque backgrounds', async () => {
    const res = await request(t.app).get('/api/admin/userfiles').set('Cookie', t.cookie);
    const files = res.body.files as { path: string; folder: string; transparent: boolean | null }[];
    const frame = files.find((f) => f.path.endsWith('frame_image_photobooth-app.png'));
    const background = files.find((f) => f.path.endsWith('pink-7761356_1920.jpg'));
    expect(frame).toMatchObject({ folder: 'frames', transparent: true });
    expect(background).toMatchObject({ folder: 'backgrounds', transparent: false });
  });

  it('lists the capture app’s images and previews one small', async () => {
    const res = await request(t.app).get('/api/admin/userfiles').set('Cookie', t.cookie);
    expect(res.status).toBe(200);
    const frame = (res.body.files as { path: string; preview_url: string }[]).find((f) =>
      f.path.endsWith('frame_image_photobooth-app.png'),
    );
    expect(frame).toBeDefined();
    const preview = await request(t.app).get(frame!.preview_url).set('Cookie', t.cookie);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(preview.body.length).toBeLessThan(60_000);
  });

  it.each(['../config/config.json', 'userdata/../config/config.json', '/etc/passwd', 'media/processed_full/x.jpg'])(
    'refuses to preview %j',
    async (p) => {
      const res = await request(t.app)
        .get(`/api/admin/userfiles/preview?path=${encodeURIComponent(p)}`)
        .set('Cookie', t.cookie);
      expect(res.status).toBe(400);
    },
  );

  it('answers 404 for a userdata file that does not exist', async () => {
    const res = await request(t.app).get('/api/admin/userfiles/preview?path=userdata/nothing.png').set('Cookie', t.cookie);
    expect(res.status).toBe(404);
  });
});

describe('a frame replaced under the same name', () => {
  it('gets a new preview address and the new picture, without a restart', async () => {
    const { copyFileSync } = await import('node:fs');
    const dir = path.join(t.sim.dataDir, 'userdata', 'demoassets', 'frames');
    const name = 'cadre-remplace.png';
    copyFileSync(path.join(dir, 'frame_image_photobooth-app.png'), path.join(dir, name));
    const shown = async (): Promise<{ url: string; png: Buffer }> => {
      const list = await request(t.app).get('/api/admin/userfiles').set('Cookie', t.cookie);
      const file = (list.body.files as { path: string; preview_url: string }[]).find((f) => f.path.endsWith(name));
      const preview = await request(t.app).get(file!.preview_url).set('Cookie', t.cookie);
      return { url: file!.preview_url, png: preview.body as Buffer };
    };
    const before = await shown();
    await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
      .png()
      .toFile(path.join(dir, name));
    const after = await shown();
    expect(after.url).not.toBe(before.url);
    const [red, , blue] = (await sharp(after.png).stats()).channels;
    expect([Math.round(red!.mean), Math.round(blue!.mean)]).toEqual([0, 255]);
    expect(after.png.equals(before.png)).toBe(false);
  });
});

describe('userdata names with spaces and accents', () => {
  it('previews them like any other', async () => {
    const { copyFileSync } = await import('node:fs');
    const dir = path.join(t.sim.dataDir, 'userdata', 'demoassets', 'frames');
    copyFileSync(path.join(dir, 'frame_image_photobooth-app.png'), path.join(dir, 'cadre doré (2).png'));
    const res = await request(t.app).get('/api/admin/userfiles').set('Cookie', t.cookie);
    const file = (res.body.files as { path: string; preview_url: string }[]).find((f) => f.path.endsWith('cadre doré (2).png'));
    expect(file).toBeDefined();
    const preview = await request(t.app).get(file!.preview_url).set('Cookie', t.cookie);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
  });
});
