import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { HardwareDiagnostic } from '../../server/contract/hardware.contract.js';
import { buildTestApp, signIn } from '../support/app.js';

const HOUR = 3600_000;

/** The service with its hardware running, and a way to read the hardware page's diagnostic. */
async function booth() {
  const t = await buildTestApp();
  const cookie = await signIn(t.app);
  await t.services.hardware.start();
  const diagnostic = async (): Promise<HardwareDiagnostic> =>
    (await request(t.app).get('/api/admin/hardware/diagnostic').set('Cookie', cookie)).body as HardwareDiagnostic;
  return { t, cookie, diagnostic };
}

describe('timers and durations keep to the monotonic clock when the wall clock steps', () => {
  it('ends the LED test scene after its 3 s although the clock was set back two hours', async () => {
    const { t, cookie, diagnostic } = await booth();
    expect((await request(t.app).post('/api/admin/hardware/test/led').set('Cookie', cookie).send({ color: '#ff0000' })).status).toBe(204);
    expect((await diagnostic()).led.scene).toBe('test');
    t.clock.stepWall(-2 * HOUR);
    t.clock.advance(2999);
    expect((await diagnostic()).led.scene).toBe('test');
    t.clock.advance(2);
    expect((await diagnostic()).led.scene).not.toBe('test');
    await t.services.hardware.stop();
  });

  it('counts a countdown down from its duration, whatever the wall clock reads', async () => {
    const { t, cookie, diagnostic } = await booth();
    await request(t.app).post('/api/admin/hardware/test/countdown').set('Cookie', cookie).send({ seconds: 5 });
    t.clock.advance(1000);
    t.clock.stepWall(-2 * HOUR);
    expect((await diagnostic()).capture.countdown).toEqual({ duration_ms: 5000, remaining_ms: 4000 });
    t.clock.stepWall(+4 * HOUR);
    expect((await diagnostic()).capture.countdown).toEqual({ duration_ms: 5000, remaining_ms: 4000 });
    await t.services.hardware.stop();
  });

  it('dates a capture restart request by the wall clock (not 1970), and measures uptime on the monotonic one', async () => {
    const { t, cookie } = await booth();
    t.services.restarter.request('actions');
    expect(Date.parse(t.services.restarter.status().requested_at ?? '')).toBe(t.clock.now());
    t.clock.advance(60_000);
    t.clock.stepWall(-2 * HOUR);
    const status = await request(t.app).get('/api/admin/dashboard/status').set('Cookie', cookie);
    expect(status.body.process_uptime_seconds).toBe(60);
    await t.services.hardware.stop();
  });
});
