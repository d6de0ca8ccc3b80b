import { describe, expect, it } from 'vitest';
import {
  BACK_STEPS,
  FORWARD_STEPS,
  needsFilesBeforeStart,
  parseJournal,
  resumeDirection,
  whenStepFails,
  type Journal,
} from '../../../deploy/src/rules/journal.js';

const A = 'releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';
const B = 'releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage';
const journal = (over: Partial<Journal> = {}): Journal => ({
  run: 'r1',
  kind: 'install',
  from: A,
  to: B,
  plan: 'live',
  step: 'prepared',
  force: false,
  begun: '2026-11-26T18:00:00.000Z',
  ...over,
});

describe("the switch's journal", () => {
  it('reads back what was written, watch times and baseline included', () => {
    const j = journal({
      step: 'watching',
      answeredAt: 123456,
      bootId: 'b-1',
      baseline: { active: 'active', sub: 'running', restarts: 2, mainPid: 77 },
    });
    expect(parseJournal(JSON.stringify(j))).toEqual(j);
    const back = journal({ step: 'back-stopping', failure: 'the disk is full', notStarted: true });
    expect(parseJournal(JSON.stringify(back))).toEqual(back);
  });

  it('refuses what is not a journal: a release path outside releases/, an unknown step, a torn text', () => {
    expect(parseJournal(JSON.stringify(journal({ to: '../../etc/passwd' })))).toBeUndefined();
    expect(parseJournal(JSON.stringify({ ...journal(), step: 'dancing' }))).toBeUndefined();
    expect(parseJournal('{"run":"r1","kind":"inst')).toBeUndefined();
  });

  it("reads the shell deploy's journal (a booth updated in the middle of one) as a switch about to stop", () => {
    expect(parseJournal(`from=${A}\nto=${B}\n`)).toMatchObject({ from: A, to: B, step: 'stopping', plan: 'live' });
    expect(parseJournal(`from=\nto=${B}\n`)).toMatchObject({ from: null, to: B });
  });

  it('undoes a switch stopped before the release leaving was stopped, goes on forward after, and back once going back', () => {
    const directions = Object.fromEntries([...FORWARD_STEPS, ...BACK_STEPS].map((step) => [step, resumeDirection(journal({ step }))]));
    expect(directions).toEqual({
      prepared: 'undo',
      stopping: 'undo',
      stopped: 'forward',
      snapshotted: 'forward',
      'restore-ready': 'forward',
      'restore-swap': 'forward',
      restored: 'forward',
      switched: 'forward',
      starting: 'forward',
      watching: 'forward',
      committing: 'forward',
      'back-stopping': 'back',
      'back-stopped': 'back',
      'back-restore-ready': 'back',
      'back-restore-swap': 'back',
      'back-restored': 'back',
      'back-switched': 'back',
      'back-starting': 'back',
    });
  });

  it('on a first install (nothing to go back to) always goes forward', () => {
    expect(resumeDirection(journal({ from: null, step: 'prepared' }))).toBe('forward');
  });

  it('at boot, finishes a database swap before the unit opens a database half put back', () => {
    expect(FORWARD_STEPS.filter((step) => needsFilesBeforeStart(journal({ step })))).toEqual(['restore-ready', 'restore-swap']);
    expect(BACK_STEPS.filter((step) => needsFilesBeforeStart(journal({ step })))).toEqual(['back-restore-ready', 'back-restore-swap']);
  });

  it('a step that throws while Boothdeck is stopped goes back to the release that ran; elsewhere the error stands and the step is redone', () => {
    const when = Object.fromEntries([...FORWARD_STEPS, ...BACK_STEPS].map((step) => [step, whenStepFails(journal({ step }))]));
    expect(when).toEqual({
      prepared: 'rethrow',
      stopping: 'rethrow',
      stopped: 'back',
      snapshotted: 'back',
      'restore-ready': 'back',
      'restore-swap': 'back',
      restored: 'back',
      switched: 'rethrow',
      starting: 'rethrow',
      watching: 'rethrow',
      committing: 'rethrow',
      'back-stopping': 'rethrow',
      'back-stopped': 'rethrow',
      'back-restore-ready': 'rethrow',
      'back-restore-swap': 'rethrow',
      'back-restored': 'rethrow',
      'back-switched': 'rethrow',
      'back-starting': 'rethrow',
    });
    // A first install has nothing to go back to.
    expect(whenStepFails(journal({ from: null, step: 'restored' }))).toBe('give-up');
  });
});
