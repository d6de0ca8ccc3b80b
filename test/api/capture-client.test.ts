import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureClient } from '../../server/capture/capture.client.js';
import type { SimulatorHandle } from '../../server/capture/simulator/simulator.server.js';
import { CaptureAppError, CaptureRejectedError, CaptureUnavailableError } from '../../server/core/errors.js';
import { StreamRecorder, clientFor, startTestSimulator } from '../support/simulator.js';

type Json = Record<string, unknown>;
const imageActions = (config: Json): Json[] => (config.actions as { image: Json[] }).image;

let sim: SimulatorHandle;
let client: CaptureClient;

beforeAll(async () => {
  sim = await startTestSimulator();
  client = clientFor(sim);
});
afterAll(async () => {
  await sim.stop();
});

async function drain(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('configuration', () => {
  it('signs in with the admin password and reads the whole configuration', async () => {
    const config = await client.getConfig();
    // Version 8's groups (the simulator's default is 8.7); version 9 has no qrshare nor filetransfer.
    expect(Object.keys(config)).toEqual([
      'common',
      'actions',
      'share',
      'qrshare',
      'filetransfer',
      'mediaprocessing',
      'uisettings',
      'backends',
      'hardwareinputoutput',
      'misc',
    ]);
    expect((config.common as Json).admin_password).toBe('0000');
  });

  it('says clearly when the admin password is wrong', async () => {
    await expect(clientFor(sim, { password: 'nope' }).getConfig()).rejects.toThrow(/refused the admin password/);
  });

  it('writes back an unchanged configuration byte-for-byte equivalent', async () => {
    const file = path.join(sim.dataDir, 'config', 'config.json');
    const before = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    await client.updateConfig((config) => config);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(before);
  });

  it('keeps every field a change does not touch, and the real password', async () => {
    const before = await client.getConfig();
    await client.updateConfig((config) => {
      (imageActions(config)[0]!.jobcontrol as Json).countdown_capture = 3.5;
      return config;
    });
    const after = await client.getConfig();
    expect((imageActions(after)[0]!.jobcontrol as Json).countdown_capture).toBe(3.5);
    (imageActions(before)[0]!.jobcontrol as Json).countdown_capture = 3.5;
    expect(after).toEqual(before);
    expect((after.common as Json).admin_password).toBe('0000');
  });

  it('never loses a write when two changes run at once', async () => {
    await Promise.all([
      client.updateConfig((c) => (((c.uisettings as Json).gallery_show_delete = false), c)),
      client.updateConfig((c) => ((imageActions(c)[0]!.name = 'Renamed'), c)),
    ]);
    const config = await client.getConfig();
    expect((config.uisettings as Json).gallery_show_delete).toBe(false);
    expect(imageActions(config)[0]!.name).toBe('Renamed');
  });

  it('reports a refused configuration as a 400 with the capture app’s reasons, and writes nothing', async () => {
    const before = await client.getConfig();
    const error = await client
      .updateConfig((c) => (((imageActions(c)[0]!.processing as Json).img_frame_file = 'userdata/missing.png'), c))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaptureRejectedError);
    expect((error as CaptureRejectedError).status).toBe(400);
    expect(JSON.stringify((error as CaptureRejectedError).details)).toContain('img_frame_file');
    expect(await client.getConfig()).toEqual(before);
  });

  it('refuses to send a masked password back', async () => {
    await expect(client.updateConfig((c) => (((c.common as Json).admin_password = '**********'), c))).rejects.toThrow(/masked secrets/);
    expect(((await client.getConfig()).common as Json).admin_password).toBe('0000');
  });
});

describe('media', () => {
  it('looks up an item by UUID, and maps the capture app’s 500 for an unknown id to null', async () => {
    const item = await sim.capture();
    expect(await client.getMediaItem(item.id)).toEqual(item);
    expect(await client.getMediaItem('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('lists the collection newest first', async () => {
    const first = await sim.capture();
    const second = await sim.capture();
    const list = await client.listMedia(0, 2);
    expect(list.map((i) => i.id)).toEqual([second.id, first.id]);
  });

  it('fetches the three image sizes', async () => {
    const item = await sim.capture();
    for (const [variant, length] of [
      ['thumbnail', 400],
      ['preview', 1200],
      ['full', 1500],
    ] as const) {
      const file = await client.openMedia(variant, item.id);
      expect(file?.contentType).toBe('image/jpeg');
      const meta = await sharp(await drain(file!.stream)).metadata();
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(length);
    }
    expect(await client.openMedia('full', '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('fetches a userdata file by its local URL', async () => {
    const [frame] = await client.listUserFiles('frames');
    const file = await client.openFile(`/${frame}`);
    expect((await drain(file!.stream)).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('path-like ids never reach the capture app', () => {
  let spy: Server;
  let seen: string[];
  beforeAll(async () => {
    seen = [];
    spy = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => spy.close());

  it.each(['../config/config.json', '..%2f..%2fetc%2fpasswd', 'a/../../b', '00000000-0000-4000-8000-000000000000/../x', ''])(
    'refuses %j without a request',
    async (id) => {
      const spyClient = clientFor({ url: `http://127.0.0.1:${(spy.address() as AddressInfo).port}` });
      expect(await spyClient.getMediaItem(id)).toBeNull();
      expect(await spyClient.openMedia('full', id)).toBeNull();
      expect(await spyClient.openFile(`/userdata/${id}`)).toBeNull();
      expect(seen.filter((url) => url.includes('..') || url.includes('%2f'))).toEqual([]);
    },
  );
});

describe('live events', () => {
  it('delivers new photos and job states, and reconnects after a restart', async () => {
    const recorder = new StreamRecorder();
    const subscription = client.subscribe(recorder.onEvent, recorder.onState);
    try {
      await recorder.nextState('connected');
      const inserted = recorder.nextEvent((e) => e.event === 'DbInsert');
      const item = await sim.capture('stream');
      expect((await inserted).data).toEqual(item);

      const reconnected = recorder.nextState('connected');
      await client.restart();
      await reconnected;
      expect(sim.state().restarts).toBe(1);

      const states: string[] = [];
      const finished = recorder.nextEvent((e) => {
        const data = e.data as { target?: string };
        if (e.event === 'ProcessStateinfo' && data.target) states.push(data.target);
        return data.target === 'finished';
      });
      await client.triggerAction('image', 0);
      await finished;
      expect(states).toEqual(['counting', 'capture', 'completed', 'present', 'finished']);
    } finally {
      subscription.close();
    }
  });

  it('refuses a second capture while a job runs', async () => {
    await client.updateConfig((c) => (((imageActions(c)[0]!.jobcontrol as Json).countdown_capture = 20), c));
    await client.triggerAction('image', 0);
    const error = await client.triggerAction('image', 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaptureAppError);
    expect((error as CaptureAppError).details).toMatchObject({ status: 400 });
  });
});

describe('a capture app that is down or silent', () => {
  it('gives a 503 at once when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await clientFor({ url })
      .getConfig()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaptureUnavailableError);
    expect((error as CaptureUnavailableError).status).toBe(503);
  });

  it('gives a 503 after its timeout when the app accepts but never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = Date.now();
      const error = await clientFor({ url }, { timeoutMs: 300 })
        .listMedia(0, 10)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CaptureUnavailableError);
      expect((error as Error).message).toMatch(/no answer in time/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
