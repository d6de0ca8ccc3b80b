import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardStatus, LogsResponse } from '../../server/contract/dashboard.contract.js';
import { createFileLogger } from '../../server/core/logger.js';
import { createHostProbe, type HostProbe } from '../../server/dashboard/host-probe.js';
import { defaultRestartOptions } from '../../server/system/capture-restart.service.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { buildTestApp, signIn } from '../support/app.js';
import { Hardware, realDrivers } from '../../native/hardware.js';

const temps: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const fakeProbe = (over: Partial<HostProbe> = {}): HostProbe => ({
  diskSpace: async () => ({ free: 5 * 1024 ** 3, total: 32 * 1024 ** 3 }),
  cpuTemperature: async () => 48.3,
  throttle: async () => null,
  uptimeSeconds: () => 3600,
  ...over,
});

/** A system whose commands run until the test releases them, as a real `systemctl` takes seconds. */
class SlowSystem extends FakeSystem {
  private gates: (() => void)[] = [];
  get waiting(): number {
    return this.gates.length;
  }
  release(): void {
    this.gates.splice(0).forEach((open) => open());
  }
  override async run(...args: Parameters<FakeSystem['run']>): ReturnType<FakeSystem['run']> {
    const result = super.run(...args);
    if (args[0] === 'systemctl') await new Promise<void>((resolve) => this.gates.push(resolve));
    return result;
  }
}

const BUTTONS = ['/api/admin/system/restart-capture-app', '/api/admin/system/restart-boothdeck', '/api/admin/system/reboot'];

describe('dashboard buttons', () => {
  it('restarts the capture app the same way as every other restart: the announced chain, never a bare systemctl', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    const res = await request(t.app).post('/api/admin/system/restart-capture-app').set('Cookie', cookie);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ action: 'restart-capture', ok: true });
    // The same restart the home screen's button and a saved action ask for, followed on the console's stream.
    expect(t.services.restarter.status()).toMatchObject({ state: 'pending', reasons: ['manual'] });
    expect(t.system.calls).toEqual([]);
  });

  it('reports a failing reboot as a 502 naming the command, for the details behind the sentence', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    t.system.respond('systemctl', { code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found\n' });
    const reboot = await request(t.app).post('/api/admin/system/reboot').set('Cookie', cookie);
    expect(reboot.status).toBe(502);
    expect(reboot.body.error.code).toBe('command_failed');
    expect(reboot.body.error.message).toMatch(/^systemctl reboot failed/);
  });

  it('reboots the board with systemctl reboot', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    const res = await request(t.app).post('/api/admin/system/reboot').set('Cookie', cookie);
    expect(res.status).toBe(202);
    expect(res.body.ok).toBe(true);
    expect(t.system.calls.map((c) => [c.command, ...c.args])).toEqual([['systemctl', 'reboot']]);
  });

  it('restarts Boothdeck through the host hook, only after the answer has left', async () => {
    let restarts = 0;
    const t = await buildTestApp({ dashboard: { restartSelf: () => restarts++ } });
    const cookie = await signIn(t.app);
    const res = await request(t.app).post('/api/admin/system/restart-boothdeck').set('Cookie', cookie);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ action: 'restart-boothdeck', ok: true });
    expect(restarts).toBe(0);
    t.clock.advance(600);
    expect(restarts).toBe(1);
    expect(t.system.calls).toEqual([]);
  });

  it('runs 50 concurrent reboots once, and tells the other 49 that a reboot is under way', async () => {
    const system = new SlowSystem();
    const t = await buildTestApp({ system });
    const cookie = await signIn(t.app);
    const answers = Promise.all(Array.from({ length: 50 }, () => request(t.app).post('/api/admin/system/reboot').set('Cookie', cookie)));
    await expect.poll(() => system.waiting).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    system.release();
    const statuses = (await answers).map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    const refused = (await answers).filter((r) => r.status === 409);
    expect(refused).toHaveLength(49);
    expect(refused[0]?.body.error).toEqual({ code: 'maintenance_busy', message: 'The board is already rebooting: wait for it to finish' });
    expect(system.calls.filter((c) => c.args.includes('reboot'))).toHaveLength(1);
    // Once started, a reboot stays under way: a later tap is refused too, and a restart as well.
    expect((await request(t.app).post('/api/admin/system/reboot').set('Cookie', cookie)).status).toBe(409);
    expect((await request(t.app).post('/api/admin/system/restart-capture-app').set('Cookie', cookie)).status).toBe(409);
  });

  it('joins 50 concurrent capture-app restarts into one restart, the same one every restart button asks for', async () => {
    const t = await buildTestApp();
    const cookie = await signIn(t.app);
    const send = () => request(t.app).post('/api/admin/system/restart-capture-app').set('Cookie', cookie);
    const statuses = (await Promise.all(Array.from({ length: 50 }, send))).map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(50);
    expect(t.services.restarter.status()).toMatchObject({ state: 'pending', reasons: [expect.any(String)] });
    // One restart starts once the taps have stopped, whatever their number.
    t.clock.advance(defaultRestartOptions.debounceMs);
    expect(t.services.restarter.status().state).toBe('restarting');
    expect(t.system.calls.filter((c) => c.command === 'systemctl')).toEqual([]);
  });

  it('refuses every button without a session (401), from another site (403), and by GET', async () => {
    const t = await buildTestApp({ dashboard: { restartSelf: () => expect.fail('must not restart') } });
    const cookie = await signIn(t.app);
    for (const url of BUTTONS) {
      expect((await request(t.app).post(url)).status).toBe(401);
      const foreign = await request(t.app).post(url).set('Cookie', cookie).set('Origin', 'http://evil.example');
      expect(foreign.status).toBe(403);
      expect((await request(t.app).get(url).set('Cookie', cookie)).status).toBe(404);
    }
    t.clock.advance(1000);
    expect(t.system.calls).toEqual([]);
  });
});

describe('dashboard status', () => {
  it('shows the capture app, the current event with its photos per hour, disks, CPU and the print queue', async () => {
    const dataDir = tempDir('boothdeck-status-');
    const t = await buildTestApp({
      dashboard: {
        probe: fakeProbe({
          diskSpace: async (folder) => (folder.includes('capture') ? { free: 512 * 1024 ** 2, total: 1e10 } : { free: 4e9, total: 1e10 }),
        }),
        printStatus: () => ({ queued: 2, printing: 1, failed: 0, paused: false, pause: null, printer: 'Canon_SELPHY' }),
        build: 'abc1234',
      },
      captureDataDir: path.join(dataDir, 'capture'),
    });
    const cookie = await signIn(t.app);
    t.clock.advance(10 * 60_000);
    const start = t.clock.now();
    const created = await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Mariage Léa' });
    expect(created.status).toBe(201);
    const eventId = t.db.prepare<[], { id: number }>('SELECT id FROM events WHERE archived_at IS NULL').get()?.id;
    expect(eventId).toBeDefined();
    const photo = (n: number, at: number) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      stem: `stem-${n}`,
      file: `media/processed_full/stem-${n}.jpg`,
      kind: 'photo' as const,
      event_id: eventId as number,
      taken_at: at,
      updated_at: null,
      created_at: at,
      mtime: at,
      size: 4_000_000,
      processed: 1,
      visible: 1,
      missing: 0,
      printed_copies: 0,
      indexed_at: at,
    });
    t.services.photoRepository.upsertMany([photo(1, start + 60_000), photo(2, start + 120_000), photo(3, start + 2 * 3_600_000)]);
    t.clock.advance(2 * 3_600_000 + 60_000);

    // Two hours later the session has expired: sign in again.
    const res = await request(t.app)
      .get('/api/admin/dashboard/status')
      .set('Cookie', await signIn(t.app));
    expect(res.status).toBe(200);
    const body = res.body as DashboardStatus;
    expect(body).toMatchObject({ version: '0.0.0-test', build: 'abc1234', system_uptime_seconds: 3600 });
    expect(body.capture).toMatchObject({ url: 'http://capture.fake', reachable: true });
    expect(body.event).toMatchObject({ name: 'Mariage Léa', photo_count: 3 });
    expect(body.photos_per_hour).toEqual([
      { hour: '2026-11-22T12:00:00.000Z', count: 2 },
      { hour: '2026-11-22T13:00:00.000Z', count: 0 },
      { hour: '2026-11-22T14:00:00.000Z', count: 1 },
    ]);
    const capture = body.disks.find((d) => d.id === 'capture');
    expect(capture).toMatchObject({ low: true, photos_left: Math.floor((512 * 1024 ** 2) / 12_000_000) });
    expect(body.disks.find((d) => d.id === 'data')).toMatchObject({ low: false, photos_left: Math.floor(4e9 / 12_000_000) });
    expect(body.cpu).toEqual({ temperature_c: 48.3, throttle: null });
    expect(body.print).toEqual({ queued: 2, printing: 1, failed: 0, paused: false, pause: null, printer: 'Canon_SELPHY' });
  });

  it('shows the print queue of the print service, and says when the capture app is down', async () => {
    const t = await buildTestApp({ dashboard: { probe: fakeProbe() } });
    const cookie = await signIn(t.app);
    (t.services.ports.capture as unknown as { down: boolean }).down = true;
    const body = (await request(t.app).get('/api/admin/dashboard/status').set('Cookie', cookie)).body as DashboardStatus;
    expect(body.print).toMatchObject({ queued: 0, printing: 0, failed: 0, paused: false });
    expect(body.event).toBeNull();
    expect(body.capture.reachable).toBe(false);
    expect(body.disks.every((d) => d.photos_left === null)).toBe(true);
  });

  it('reads the CPU temperature under the /sys root and the throttling flags from vcgencmd', async () => {
    const sys = tempDir('boothdeck-sys-');
    mkdirSync(path.join(sys, 'class', 'thermal', 'thermal_zone0'), { recursive: true });
    writeFileSync(path.join(sys, 'class', 'thermal', 'thermal_zone0', 'temp'), '61234\n');
    const system = new FakeSystem();
    system.respond('vcgencmd', { code: 0, stdout: 'throttled=0x50005\n', stderr: '' });
    const probe = createHostProbe(system, sys);
    expect(await probe.cpuTemperature()).toBe(61.2);
    expect(await probe.throttle()).toEqual({
      raw: '0x50005',
      under_voltage_now: true,
      frequency_capped_now: false,
      throttled_now: true,
      soft_temp_limit_now: false,
      under_voltage_since_boot: true,
      throttled_since_boot: true,
    });
    expect(system.calls).toEqual([{ command: 'vcgencmd', args: ['get_throttled'], env: undefined }]);
    system.respond('vcgencmd', { code: 127, stdout: '', stderr: 'vcgencmd: not found' });
    expect(await probe.throttle()).toBeNull();
    expect(await createHostProbe(system, path.join(sys, 'nothing')).cpuTemperature()).toBeNull();
  });
});

describe('log tail', () => {
  it('answers the last lines of the rolling log file, filtered by level', async () => {
    const logDir = tempDir('boothdeck-logs-');
    const log = await createFileLogger(logDir);
    log.info('Service started');
    log.warn('Capture app slow to answer');
    log.error('Print failed', new Error('printer offline'));
    log.info('Photo indexed');
    const t = await buildTestApp({ dashboard: { logDir } });
    const cookie = await signIn(t.app);

    const all = (await request(t.app).get('/api/admin/logs').set('Cookie', cookie)).body as LogsResponse;
    expect(all.lines.map((l) => [l.level, l.message])).toEqual([
      ['info', 'Service started'],
      ['warn', 'Capture app slow to answer'],
      ['error', 'Print failed'],
      ['info', 'Photo indexed'],
    ]);
    expect(all.lines[2]?.error).toBe('printer offline');

    const warn = (await request(t.app).get('/api/admin/logs?level=warn&limit=1').set('Cookie', cookie)).body as LogsResponse;
    expect(warn.lines.map((l) => l.message)).toEqual(['Print failed']);

    expect((await request(t.app).get('/api/admin/logs?level=debug').set('Cookie', cookie)).status).toBe(400);
    expect((await request(t.app).get('/api/admin/logs')).status).toBe(401);
    await log.close();
  });
});

describe('the LED ring on the dashboard', () => {
  /** A Pi 5's tree: its model, the RP1's GPIO chip, and /dev/spidev0.0 (a plain file standing for the device). */
  function pi5(): string {
    const root = tempDir('boothdeck-pi5-');
    mkdirSync(path.join(root, 'sys/class/gpio/gpiochip571'), { recursive: true });
    writeFileSync(path.join(root, 'sys/class/gpio/gpiochip571/label'), 'pinctrl-rp1\n');
    writeFileSync(path.join(root, 'sys/class/gpio/gpiochip571/base'), '571\n');
    mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
    writeFileSync(path.join(root, 'proc/device-tree/model'), 'Raspberry Pi 5 Model B Rev 1.0\0');
    mkdirSync(path.join(root, 'dev'), { recursive: true });
    writeFileSync(path.join(root, 'dev/spidev0.0'), '');
    return root;
  }

  it('says SPI lights the ring on a Pi 5 and why rpi-ws281x was not used; nothing with fake hardware', async () => {
    const hardware = new Hardware(realDrivers({ root: pi5(), isRoot: false, spidevSetup: async (_device, speed) => speed }));
    await hardware.configure({ relay: { gpio: 17, inverted: false }, lux: { bus: 1, address: 0x23 }, led: { count: 16, gpio: 10 } });
    try {
      const { app } = await buildTestApp({ hardware });
      const cookie = await signIn(app);
      const status = (await request(app).get('/api/admin/dashboard/status').set('Cookie', cookie)).body as DashboardStatus;
      expect(status.led_driver).toEqual({ driver: 'spi', gpio: 10, passed: [{ driver: 'ws281x', reason: 'spi-pin' }] });
    } finally {
      await hardware.close();
    }
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    const status = (await request(app).get('/api/admin/dashboard/status').set('Cookie', cookie)).body as DashboardStatus;
    expect(status.led_driver).toBeUndefined();
  });
});

describe("the Pi 4's core clock and the relay's GPIO interface on the dashboard", () => {
  /** A Pi 4 on kernel 6.6 without the sysfs export (only the chip entries), with SPI on and a config.txt. */
  function pi4(config: string): string {
    const root = tempDir('boothdeck-pi4-');
    mkdirSync(path.join(root, 'sys/class/gpio/gpiochip512'), { recursive: true });
    writeFileSync(path.join(root, 'sys/class/gpio/gpiochip512/label'), 'pinctrl-bcm2711\n');
    writeFileSync(path.join(root, 'sys/class/gpio/gpiochip512/base'), '512\n');
    mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
    writeFileSync(path.join(root, 'proc/device-tree/model'), 'Raspberry Pi 4 Model B Rev 1.5\0');
    mkdirSync(path.join(root, 'dev'), { recursive: true });
    writeFileSync(path.join(root, 'dev/spidev0.0'), '');
    mkdirSync(path.join(root, 'boot/firmware'), { recursive: true });
    writeFileSync(path.join(root, 'boot/firmware/config.txt'), config);
    return root;
  }

  async function statusOf(root: string): Promise<DashboardStatus> {
    const hardware = new Hardware(realDrivers({ root, isRoot: false, spidevSetup: async (_device, speed) => speed }));
    await hardware.configure({ relay: { gpio: 17, inverted: false }, lux: { bus: 1, address: 0x23 }, led: { count: 16, gpio: 10 } });
    try {
      const { app } = await buildTestApp({ hardware });
      const cookie = await signIn(app);
      return (await request(app).get('/api/admin/dashboard/status').set('Cookie', cookie)).body as DashboardStatus;
    } finally {
      await hardware.close();
    }
  }

  it('says the core clock is not fixed (a [pi5] line does not count), and fixed with core_freq and core_freq_min at 500', async () => {
    const loose = await statusOf(pi4('dtparam=spi=on\n[pi5]\ncore_freq=500\ncore_freq_min=500\n'));
    expect(loose.led_driver?.core_clock).toEqual({ fixed: false, config: '/boot/firmware/config.txt', mhz: null });
    const fixed = await statusOf(pi4('dtparam=spi=on\n[pi4]\ncore_freq=500\ncore_freq_min=500\n[all]\n'));
    expect(fixed.led_driver?.core_clock).toEqual({ fixed: true, config: '/boot/firmware/config.txt', mhz: 500 });
    const low = await statusOf(pi4('core_freq=250\ncore_freq_min=250 # a quieter GPU\n'));
    expect(low.led_driver?.core_clock).toMatchObject({ fixed: false, mhz: 250 });
  });

  it('names the GPIO interface of the relay: none here, with the problem (no export, no character device)', async () => {
    const status = await statusOf(pi4(''));
    expect(status.gpio_driver).toEqual({ driver: null, problem: 'no-gpio' });
    const { app } = await buildTestApp();
    const cookie = await signIn(app);
    expect(
      ((await request(app).get('/api/admin/dashboard/status').set('Cookie', cookie)).body as DashboardStatus).gpio_driver,
    ).toBeUndefined();
  });
});
