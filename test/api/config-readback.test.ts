import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareWrite } from '../../server/capture/config-readback.js';
import { POSTER_FRAME_FILE } from '../../server/capture/simulator/simulator.defaults.js';
import type { BoothAction } from '../../server/contract/actions.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

describe('comparing a write with what the capture app kept', () => {
  const before = { ui: { color: '#ff0000', title: 'A', count: 2 }, list: [{ a: 1 }] };

  it('finds a dropped value and a changed one, and compares colours as colours', () => {
    const sent = { ui: { color: '#0000ff', title: 'B', count: 3, new_key: true }, list: [{ a: 1 }, { a: 2 }] };
    const stored = { ui: { color: 'blue', title: 'B!', count: 3 }, list: [{ a: 1 }] };
    expect(compareWrite(before, sent, stored)).toEqual([
      { path: ['ui', 'title'], sent: 'B', stored: 'B!' },
      { path: ['ui', 'new_key'], sent: true, stored: undefined },
      { path: ['list', 1, 'a'], sent: 2, stored: undefined },
    ]);
  });

  it('compares only what the write changed, and a colour only under a colour key', () => {
    // The capture app rewrote an unchanged title: not this write's doing, not reported.
    expect(compareWrite(before, structuredClone(before), { ...before, ui: { ...before.ui, title: 'Z' } })).toEqual([]);
    expect(compareWrite({ t: 'x' }, { t: 'red' }, { t: '#f00' })).toEqual([{ path: ['t'], sent: 'red', stored: '#f00' }]);
    expect(
      compareWrite({ fill_background_color: '#000' }, { fill_background_color: '#333333' }, { fill_background_color: '#333' }),
    ).toEqual([]);
  });
});

describe('a write the capture app drops is reported by field', () => {
  let t: SimApp;
  beforeEach(async () => {
    t = await startSimApp();
  });
  afterEach(async () => {
    await t.close();
  });
  const put = (idx: number, body: object) => request(t.app).put(`/api/admin/actions/${idx}`).set('Cookie', t.cookie).send(body);
  const captureImage = (): Record<string, unknown> => {
    const config = JSON.parse(readFileSync(path.join(t.sim.dataDir, 'config', 'config.json'), 'utf8')) as {
      actions: { image: { processing: Record<string, unknown> }[] };
    };
    return config.actions.image[0]!.processing;
  };

  it('names the frame of action 1 when the capture app does not know the frame field, and never as kept', async () => {
    t.sim.dropKeys(['actions.image.*.processing.img_frame_file']);
    const res = await put(0, { 'frame.file': POSTER_FRAME_FILE, 'ui_trigger.title': 'Portrait' });
    expect(res.status).toBe(200);
    expect(res.body.not_kept).toEqual([{ index: 0, field: 'frame.file', known: true, outcome: 'dropped' }]);
    expect(res.body.verified).toBe(true);
    expect('img_frame_file' in captureImage()).toBe(false);
    // The answer shows what the capture app holds, and its version is the next read's.
    expect((res.body.action as BoothAction).frame?.file).toBeNull();
    const again = await put(0, { 'ui_trigger.title': 'Portrait 2' }).set('If-Match', `"${res.body.version as string}"`);
    expect(again.status).toBe(200);
    // What the list shows now is what the capture app holds, not what was asked.
    const list = await request(t.app).get('/api/admin/actions').set('Cookie', t.cookie);
    expect((list.body.actions as BoothAction[])[0]?.ui_trigger.title).toBe('Portrait 2');
    expect((list.body.actions as BoothAction[])[0]?.frame?.file).toBeNull();
  });

  it('reports nothing for a kept write, colours normalised by the capture app included', async () => {
    const res = await put(0, { 'ui_trigger.custom_color': '#0000ff', 'background.fill_color': '#333333', 'frame.file': POSTER_FRAME_FILE });
    expect(res.status).toBe(200);
    expect(res.body.not_kept).toEqual([]);
    expect((captureImage().fill_background_color as string).toLowerCase()).toBe('#333');
  });

  it('names an animation’s frames once, whatever number of durations were dropped, at the action’s position', async () => {
    t.sim.dropKeys(['actions.animation.*.processing.merge_definition.*.duration']);
    const res = await put(2, { 'processing.frames': [500, 600, 700] });
    expect(res.status).toBe(200);
    expect(res.body.not_kept).toEqual([{ index: 2, field: 'processing.frames', known: true, outcome: 'dropped' }]);
  });

  it('refuses a gallery setting the capture app does not keep, naming it, and stores nothing', async () => {
    t.sim.dropKeys(['uisettings.gallery_show_delete']);
    const res = await request(t.app)
      .put('/api/admin/settings')
      .set('Cookie', t.cookie)
      .send({ gallery: { show_delete: false } });
    expect(res.body.error?.code).toBe('capture_not_kept');
    expect(res.status).toBe(502);
    expect(res.body.error.details).toEqual({ not_kept: [{ index: null, field: 'gallery.show_delete', known: true, outcome: 'dropped' }] });
    t.sim.dropKeys([]);
    const after = await request(t.app).get('/api/admin/settings').set('Cookie', t.cookie);
    expect(after.body.gallery.show_delete).toBe(true);
  });
});
