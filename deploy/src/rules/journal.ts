import type { UnitState } from './unit-state.js';
import { versionOf } from './names.js';
import { parseObject } from './json-object.js';

/**
 * The switch's journal (~/boothdeck/deploy.state): written, and synced, before each step, so that
 * whatever step a kill, a SIGTERM or a power cut interrupts, the next run (the recover watcher, the
 * deploy's next start, the boot) knows where the booth stands and which way to finish.
 *
 * Going forward: the release leaving is stopped, its database copied (its snapshot), the database
 * the new one needs put in place, `current` switched, the unit started, the new release watched,
 * then the links committed. Any failure after the stop goes back the same way to the release before.
 * Every step can be done again: a step interrupted halfway is simply redone.
 */
export const FORWARD_STEPS = [
  'prepared',
  'stopping',
  'stopped',
  'snapshotted',
  'restore-ready',
  'restore-swap',
  'restored',
  'switched',
  'starting',
  'watching',
  'committing',
] as const;

export const BACK_STEPS = [
  'back-stopping',
  'back-stopped',
  'back-restore-ready',
  'back-restore-swap',
  'back-restored',
  'back-switched',
  'back-starting',
] as const;

export type ForwardStep = (typeof FORWARD_STEPS)[number];
export type BackStep = (typeof BACK_STEPS)[number];
export type Step = ForwardStep | BackStep;

export type DatabasePlanKind = 'live' | 'snapshot';

export interface Journal {
  run: string;
  kind: 'install' | 'rollback';
  /** The release leaving (`releases/…`); null on a first install. */
  from: string | null;
  to: string;
  /** The database `to` gets: the live one, or its own snapshot put back. */
  plan: DatabasePlanKind;
  /** The database `from` gets back, once going back (decided with the unit stopped). */
  backPlan?: DatabasePlanKind;
  step: Step;
  /** Why the switch goes back, once it does. */
  failure?: string;
  /** The switch went back before `to` was ever started (the deploy failed, not the release). */
  notStarted?: boolean;
  /** When `to` first answered: CLOCK_MONOTONIC milliseconds of the boot `bootId`. */
  answeredAt?: number;
  bootId?: string;
  /** The unit when `to` first answered: the watch compares with it. */
  baseline?: UnitState;
  force: boolean;
  /** When the switch began (UTC, ISO 8601), for the log. */
  begun: string;
}

const STEPS: readonly string[] = [...FORWARD_STEPS, ...BACK_STEPS];
const isRelease = (v: unknown): v is string => typeof v === 'string' && v.startsWith('releases/') && versionOf(v) !== undefined;
const isPlan = (v: unknown): v is DatabasePlanKind => v === 'live' || v === 'snapshot';

function unitOf(v: unknown): UnitState | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const u = v as Record<string, unknown>;
  if (typeof u.active !== 'string' || typeof u.sub !== 'string' || typeof u.restarts !== 'number' || typeof u.mainPid !== 'number')
    return undefined;
  return { active: u.active, sub: u.sub, restarts: u.restarts, mainPid: u.mainPid };
}

/** The journal read back; undefined when it is not one (a torn write never happens: it is renamed into place). */
export function parseJournal(text: string): Journal | undefined {
  const legacy = parseLegacyJournal(text);
  if (legacy) return legacy;
  const d = parseObject(text);
  if (!d) return undefined;
  if (typeof d.run !== 'string' || (d.kind !== 'install' && d.kind !== 'rollback')) return undefined;
  if (
    !(d.from === null || isRelease(d.from)) ||
    !isRelease(d.to) ||
    !isPlan(d.plan) ||
    typeof d.step !== 'string' ||
    !STEPS.includes(d.step)
  )
    return undefined;
  const journal: Journal = {
    run: d.run,
    kind: d.kind,
    from: d.from,
    to: d.to,
    plan: d.plan,
    step: d.step as Step,
    force: d.force === true,
    begun: typeof d.begun === 'string' ? d.begun : '',
  };
  if (isPlan(d.backPlan)) journal.backPlan = d.backPlan;
  if (typeof d.failure === 'string') journal.failure = d.failure;
  if (d.notStarted === true) journal.notStarted = true;
  if (typeof d.answeredAt === 'number' && typeof d.bootId === 'string') {
    journal.answeredAt = d.answeredAt;
    journal.bootId = d.bootId;
  }
  const baseline = unitOf(d.baseline);
  if (baseline) journal.baseline = baseline;
  return journal;
}

/**
 * The shell deploy's journal (`from=` and `to=` lines, written before it stopped anything), left
 * by a booth updated in the middle of one: read as a switch about to stop the release leaving.
 */
function parseLegacyJournal(text: string): Journal | undefined {
  if (!/^(from|to)=/m.test(text) || text.trimStart().startsWith('{')) return undefined;
  const value = (key: string): string | undefined => new RegExp(`^${key}=(.*)$`, 'm').exec(text)?.[1];
  const from = value('from');
  const to = value('to');
  if (!isRelease(to) || !(from === '' || from === undefined || isRelease(from))) return undefined;
  return { run: 'shell-deploy', kind: 'install', from: from || null, to, plan: 'live', step: 'stopping', force: false, begun: '' };
}

export const isBackStep = (step: Step): step is BackStep => (BACK_STEPS as readonly string[]).includes(step);

/** How far a forward step is: compare with `forwardIndex('switched')`. */
export const forwardIndex = (step: ForwardStep): number => FORWARD_STEPS.indexOf(step);

/**
 * Which way an interrupted switch is finished. Before the release leaving was stopped, nothing
 * changed: undone (it is made to run again). From the stop on, the switch goes on forward from
 * where it was, or back if it was already going back: every step is safe to do again.
 */
export function resumeDirection(journal: Journal): 'undo' | 'forward' | 'back' {
  if (isBackStep(journal.step)) return 'back';
  // A first install has nothing to go back to: it can only be finished.
  if (journal.from === null) return 'forward';
  return forwardIndex(journal.step) < forwardIndex('stopped') ? 'undo' : 'forward';
}

/**
 * What the boot must finish before the unit starts: an interrupted database swap (the unit would
 * otherwise open a database half put back). The rest waits for the recover watcher.
 */
export const needsFilesBeforeStart = (journal: Journal): boolean =>
  ['restore-ready', 'restore-swap', 'back-restore-ready', 'back-restore-swap'].includes(journal.step);

/**
 * A step that throws (a full disk, a read error): what the switch does then. Between the stop and
 * the start of the new release Boothdeck is stopped, and redoing the step would keep it dark until
 * someone comes: the switch goes back to the release that ran (`back`), or, on a first install
 * with nothing to go back to, gives up (`give-up`). Elsewhere a release runs, or the switch is
 * already going back: the error stands (`rethrow`) and the next run redoes the step.
 */
export function whenStepFails(journal: Journal): 'back' | 'give-up' | 'rethrow' {
  if (isBackStep(journal.step)) return 'rethrow';
  const at = forwardIndex(journal.step);
  if (at < forwardIndex('stopped') || at >= forwardIndex('switched')) return 'rethrow';
  return journal.from === null || journal.from === journal.to ? 'give-up' : 'back';
}
