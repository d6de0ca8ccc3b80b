import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BoothScreen } from '../../main/booth-screen.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { CaptureRestartService, defaultRestartOptions } from '../../server/system/capture-restart.service.js';
import { FakeSystem } from '../../server/system/system.fake.js';

/** Fakes for the window's layers and the capture app, all writing into one ordered journal. */
function setup() {
  const journal: string[] = [];
  const visible = { capture: false, hotspot: false };
  const screen = new BoothScreen({
    capture: {
      setVisible: (v) => {
        visible.capture = v;
        journal.push(v ? 'capture:show' : 'capture:hide');
      },
      reload: () => journal.push('capture:reload'),
    },
    hotspot: {
      setVisible: (v) => {
        visible.hotspot = v;
        journal.push(v ? 'hotspot:show' : 'hotspot:hide');
      },
    },
    console: { focus: () => journal.push('console:focus') },
  });
  const capture = new FakeCaptureApp();
  capture.onRestart = () => {
    journal.push('capture-app:restart');
    capture.down = true;
  };
  const system = new FakeSystem();
  const clock = new FakeClock();
  const restarter = new CaptureRestartService(capture, system, clock, createRecordingLogger(), {
    ...defaultRestartOptions,
    debounceMs: 1000,
    downGraceMs: 1000,
    pollMs: 100,
    readyTimeoutMs: 5000,
    refreshScreen: () => screen.refreshCapture(),
  });
  const run = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 50) {
      clock.advance(50);
      await nextTurn();
    }
  };
  const comeBack = () => {
    journal.push('capture-app:up');
    capture.down = false;
  };
  return { journal, visible, screen, capture, system, restarter, run, comeBack };
}

describe('the booth screen shared by the capture app and the console', () => {
  it('starts on the capture app, with the long-press corner armed', () => {
    const { screen, visible, journal } = setup();
    expect(screen.owner).toBe('booth');
    expect(visible).toEqual({ capture: true, hotspot: true });
    expect(journal).toEqual(['capture:show', 'hotspot:show']);
  });

  it('hands the screen to the console on a long press and back when the console locks', () => {
    const { screen, visible, journal } = setup();
    journal.length = 0;
    screen.showConsole();
    expect(screen.owner).toBe('console');
    expect(visible).toEqual({ capture: false, hotspot: false });
    screen.showConsole();
    screen.showBooth();
    expect(visible).toEqual({ capture: true, hotspot: true });
    expect(journal).toEqual(['capture:hide', 'hotspot:hide', 'console:focus', 'capture:show', 'hotspot:show']);
  });

  it('hand-over, restart, refresh: the capture app view is reloaded only once the app is back, never the console', async () => {
    const { screen, journal, restarter, run, comeBack, system } = setup();
    journal.length = 0;
    screen.showConsole(); // the operator edits actions in the console
    restarter.request('actions');
    await run(1200); // debounce passes, restart asked, the app goes down
    expect(journal).toContain('capture-app:restart');
    expect(journal).not.toContain('capture:reload');
    expect(restarter.status().state).toBe('restarting');
    comeBack();
    await run(300);
    expect(restarter.status()).toMatchObject({ state: 'done', screen_refreshed: true });
    screen.showBooth(); // the console locks: guests get the refreshed capture screen
    expect(journal).toEqual([
      'capture:hide',
      'hotspot:hide',
      'console:focus',
      'capture-app:restart',
      'capture-app:up',
      'capture:reload',
      'capture:show',
      'hotspot:show',
    ]);
    // No key press sent to whichever window has focus: the view is reloaded directly.
    expect(system.calls).toEqual([]);
    expect(screen.owner).toBe('booth');
  });

  it('reports a refresh that throws as a failed restart, in plain words', async () => {
    const capture = new FakeCaptureApp();
    const clock = new FakeClock();
    const restarter = new CaptureRestartService(capture, new FakeSystem(), clock, createRecordingLogger(), {
      ...defaultRestartOptions,
      debounceMs: 10,
      downGraceMs: 0,
      pollMs: 10,
      refreshScreen: () => {
        throw new Error('the window is gone');
      },
    });
    restarter.request('actions');
    for (let i = 0; i < 20; i++) {
      clock.advance(10);
      await nextTurn();
    }
    expect(restarter.status()).toMatchObject({
      state: 'failed',
      screen_refreshed: false,
      message: 'Screen refresh failed: the window is gone',
    });
  });
});
