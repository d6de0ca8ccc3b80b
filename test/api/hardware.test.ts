import { setImmediate as flush } from 'node:timers/promises';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { FakeHardware } from '../../native/hardware.js';
import type { HardwareDiagnostic } from '../../server/contract/hardware.contract.js';
import { buildTestApp, signIn } from '../support/app.js';

async function setup() {
  const t = await buildTestApp();
  t.services.captureLink.start();
  await t.services.hardware.start();
  const hardware = t.services.ports.hardware as FakeHardware;
  const cookie = await signIn(t.app);
  const run = async (ms: number): Promise<void> => {
    for (let done = 0; done < ms; done += 100) {
      t.clock.advance(100);
      await flush();
    }
  };
  return { ...t, hardware, cookie, run };
}

describe('hardware diagnostic and test buttons', () => {
  it('needs a session', async () => {
    const { app } = await buildTestApp();
    for (const path of ['/api/admin/hardware/diagnostic', '/api/admin/hardware/test/flash']) {
      const res = path.endsWith('diagnostic') ? await request(app).get(path) : await request(app).post(path);
      expect(res.status).toBe(401);
    }
  });

  it('reports lux samples, the decision and why, the LED brightness and each device', async () => {
    const { app, cookie, hardware, run } = await setup();
    hardware.lux.lux = 30;
    await run(3000);
    const res = await request(app).get('/api/admin/hardware/diagnostic').set('Cookie', cookie);
    expect(res.status).toBe(200);
    const body = res.body as HardwareDiagnostic;
    expect(body.lux).toMatchObject({ current: 30, threshold: 80, band: 8 });
    expect(body.lux.samples.length).toBeGreaterThanOrEqual(3);
    expect(body.decision).toMatchObject({ fire: true, reason: 'dark' });
    expect(body.led).toMatchObject({ brightness: 30, source: 'manual', scene: expect.any(String) });
    expect(body.devices.map((d) => [d.device, d.state])).toEqual([
      ['relay', 'simulated'],
      ['lux', 'simulated'],
      ['led', 'simulated'],
    ]);
    const since = body.lux.samples.at(-1)?.t ?? 0;
    await run(2000);
    const later = (await request(app).get(`/api/admin/hardware/diagnostic?since=${since}`).set('Cookie', cookie))
      .body as HardwareDiagnostic;
    expect(later.lux.samples.length).toBe(2);
    expect((await request(app).get('/api/admin/hardware/diagnostic?since=abc').set('Cookie', cookie)).status).toBe(400);
  });

  it('flash now lights the relay for one hold time; relay test for the asked time', async () => {
    const { app, cookie, hardware, run } = await setup();
    expect((await request(app).post('/api/admin/hardware/test/flash').set('Cookie', cookie)).status).toBe(204);
    expect(hardware.relay.isOn()).toBe(true);
    await run(500);
    expect(hardware.relay.isOn()).toBe(false);
    expect((await request(app).post('/api/admin/hardware/test/relay').set('Cookie', cookie).send({ ms: 1000 })).status).toBe(204);
    await run(900);
    expect(hardware.relay.isOn()).toBe(true);
    await run(100);
    expect(hardware.relay.isOn()).toBe(false);
  });

  it('shows a test colour on the ring and plays a simulated countdown with its pre-flash', async () => {
    const { app, cookie, hardware, run } = await setup();
    expect((await request(app).post('/api/admin/hardware/test/led').set('Cookie', cookie).send({ color: '#00ff00' })).status).toBe(204);
    expect(hardware.led.current.pixels[0]).toEqual({ r: 0, g: 255, b: 0 });
    await run(3100);
    const res = await request(app).post('/api/admin/hardware/test/countdown').set('Cookie', cookie).send({ seconds: 3 });
    expect(res.status).toBe(204);
    await run(1900);
    expect(hardware.relay.isOn()).toBe(false);
    await run(200);
    expect(hardware.relay.isOn()).toBe(true); // pre-flash 1 s before the end
    await run(1500);
    expect(hardware.relay.isOn()).toBe(false); // off 500 ms after the capture
  });

  it('rejects bad test input with a 400 naming the field, changing nothing', async () => {
    const { app, cookie, hardware } = await setup();
    const before = hardware.relay.history.length;
    const bad = [
      ['/api/admin/hardware/test/relay', { ms: 60_000 }],
      ['/api/admin/hardware/test/led', { color: 'red' }],
      ['/api/admin/hardware/test/countdown', { seconds: 0 }],
    ] as const;
    for (const [path, body] of bad) {
      const res = await request(app).post(path).set('Cookie', cookie).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect(hardware.relay.history.length).toBe(before);
  });

  it('applies hardware settings at once, reopening the relay on a GPIO change', async () => {
    const { app, cookie, hardware } = await setup();
    const res = await request(app)
      .put('/api/admin/settings')
      .set('Cookie', cookie)
      .send({ hardware: { relay: { gpio: 22, inverted: true }, led: { idle_color: '#112233' } } });
    expect(res.status).toBe(200);
    expect(hardware.relay.options).toEqual({ gpio: 22, inverted: true });
    expect(hardware.led.current.pixels[0]).toEqual({ r: 0x11, g: 0x22, b: 0x33 });
    const bad = await request(app)
      .put('/api/admin/settings')
      .set('Cookie', cookie)
      .send({ hardware: { flash: { preflash_seconds: 4 } } });
    expect(bad.status).toBe(400);
  });

  it('refuses a video bound or a sensor address out of range, naming the field, and changes nothing', async () => {
    const { app, cookie, hardware, services } = await setup();
    const before = structuredClone(services.settings.stored().hardware);
    const opens = hardware.opens.length;
    for (const [body, field] of [
      [{ flash: { video_max_seconds: 31 } }, 'hardware.flash.video_max_seconds'],
      [{ flash: { video_max_seconds: 4.5 } }, 'hardware.flash.video_max_seconds'],
      [{ flash: { video_light: 'yes' } }, 'hardware.flash.video_light'],
      [{ lux: { address: 0x24 } }, 'hardware.lux.address'],
      [{ lux: { address: '0x5c' } }, 'hardware.lux.address'],
    ] as const) {
      const res = await request(app).put('/api/admin/settings').set('Cookie', cookie).send({ hardware: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toEqual([field]);
    }
    expect(services.settings.stored().hardware).toEqual(before);
    expect(hardware.opens.length).toBe(opens);
    const good = await request(app)
      .put('/api/admin/settings')
      .set('Cookie', cookie)
      .send({ hardware: { lux: { address: 0x5c } } });
    expect(good.status).toBe(200);
    expect(hardware.opens.at(-1)).toEqual({ device: 'lux', options: { bus: 1, address: 0x5c } });
  });
});
