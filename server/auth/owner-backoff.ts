import type { Clock } from '../core/clock/clock.port.js';
import type { OwnerFailures } from '../contract/session.contract.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

/** Where a PIN was typed: the booth's own screen (loopback) or any client on the network. */
export type Door = 'booth' | 'network';

/** Wrong owner PINs a door may see before it waits. */
export const OWNER_FREE_FAILURES = 5;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 15 * 60_000;
/** A door left alone this long since its last wrong PIN starts afresh. */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

const STORE_KEY = 'admin.owner_attempts';

/** The wait after a door's n-th wrong owner PIN in a row: none for the first four, then 30 s doubling to 15 min. */
export function ownerWaitMs(failures: number): number {
  if (failures < OWNER_FREE_FAILURES) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - OWNER_FREE_FAILURES));
}

interface DoorState {
  failures: number;
  /** Last wrong PIN, on the monotonic clock (taken back from the wall clock after a restart). */
  lastMono: number;
  /** The same moment on the wall clock: what is stored. */
  lastAt: number;
  /**
   * From when the count's FORGET_AFTER_MS runs, on the monotonic clock: the last wrong PIN, or this
   * run's start for a count read back after a restart (the wall clock cannot say how long it lay).
   */
  keptFromMono: number;
}

interface Stored {
  doors: Partial<Record<Door, { failures: number; at: number }>>;
  unseen: OwnerFailures;
}

const noFailures = (): OwnerFailures => ({ booth: 0, network: 0, last_at: null });

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e9;

/** The stored record read back field by field: anything malformed reads as nothing stored. */
function readStored(raw: unknown): Stored {
  const out: Stored = { doors: {}, unseen: noFailures() };
  if (typeof raw !== 'object' || raw === null) return out;
  const { doors, unseen } = raw as Record<string, unknown>;
  if (typeof doors === 'object' && doors !== null) {
    for (const door of ['booth', 'network'] as const) {
      const d = (doors as Record<string, unknown>)[door];
      if (typeof d === 'object' && d !== null) {
        const { failures, at } = d as Record<string, unknown>;
        if (isCount(failures) && typeof at === 'number' && Number.isFinite(at)) out.doors[door] = { failures, at };
      }
    }
  }
  if (typeof unseen === 'object' && unseen !== null) {
    const u = unseen as Record<string, unknown>;
    out.unseen = {
      booth: isCount(u.booth) ? u.booth : 0,
      network: isCount(u.network) ? u.network : 0,
      last_at: typeof u.last_at === 'string' && !Number.isNaN(Date.parse(u.last_at)) ? u.last_at : null,
    };
  }
  return out;
}

/** One owner-PIN check under way: counted as a failure from its start. */
export interface OwnerAttempt {
  /** The PIN was wrong: the failure stands and is written down. */
  fail(): void;
  /** The PIN was not the owner's to judge (it opened the event key): the attempt is taken back. */
  cancel(): void;
}

/**
 * The owner's PIN backs off on its own, apart from the general attempt limiter, because the renter
 * holds a key of their own: a right event PIN must never buy more owner-PIN guesses. Each door
 * counts its wrong owner PINs in a row (every wrong PIN at sign-in counts, since it may have been a
 * guess at the owner's); from the fifth, the owner's PIN is not even checked there for 30 s, then
 * 1, 2, 4, 8 and at most 15 minutes. Only the owner's PIN typed right ends it.
 *
 * The doors are apart so that a guest on the Wi-Fi can never keep the owner out at the booth's own
 * screen. The counts are stored (SQLite), so pulling the plug does not reset them: after a restart
 * the time since the last wrong PIN is read on the wall clock for the wait alone (a wall clock that
 * now reads earlier, a Pi without a real-time clock, counts as no time passed), and the count is
 * kept whatever the wall clock says, so a clock set forward across a restart ends one wait at most.
 * Within a run, the monotonic clock.
 *
 * Every wrong owner PIN is also added to what the owner is shown on their next visit.
 */
export class OwnerBackoff {
  private readonly doors = new Map<Door, DoorState>();
  private unseenFailures: OwnerFailures;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly clock: Clock,
  ) {
    const stored = readStored(settings.get(STORE_KEY));
    const now = clock.now();
    const mono = clock.monotonic();
    for (const [door, d] of Object.entries(stored.doors) as [Door, { failures: number; at: number }][]) {
      // A Pi has no real-time clock, and its wall clock can be set either way: the time it says
      // passed may end the wait, never the count, which only the owner PIN or a day of this run forgets.
      const elapsed = Math.max(0, now - d.at);
      this.doors.set(door, { failures: d.failures, lastMono: mono - elapsed, lastAt: d.at, keptFromMono: mono });
    }
    this.unseenFailures = stored.unseen;
  }

  private state(door: Door): DoorState | undefined {
    const d = this.doors.get(door);
    if (d && this.clock.monotonic() - Math.max(d.lastMono, d.keptFromMono) >= FORGET_AFTER_MS) {
      this.doors.delete(door);
      return undefined;
    }
    return d;
  }

  /** Seconds before the owner's PIN may be checked again at this door; 0: now. */
  waitSeconds(door: Door): number {
    const d = this.state(door);
    if (!d) return 0;
    const left = d.lastMono + ownerWaitMs(d.failures) - this.clock.monotonic();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Wrong owner PINs in a row at a door (what the wait is made of). */
  failures(door: Door): number {
    return this.state(door)?.failures ?? 0;
  }

  /** What the owner has not been shown yet. */
  unseen(): OwnerFailures {
    return { ...this.unseenFailures };
  }

  /**
   * Starts an owner-PIN check at a door; undefined while the door waits (the PIN must not be
   * checked). Counted at once, so parallel guesses meet the wait as soon as it starts.
   */
  begin(door: Door): OwnerAttempt | undefined {
    if (this.waitSeconds(door) > 0) return undefined;
    const before = this.state(door);
    const mono = this.clock.monotonic();
    const mine: DoorState = { failures: (before?.failures ?? 0) + 1, lastMono: mono, lastAt: this.clock.now(), keptFromMono: mono };
    this.doors.set(door, mine);
    let settled = false;
    return {
      fail: () => {
        if (settled) return;
        settled = true;
        const at = new Date(this.clock.now()).toISOString();
        this.unseenFailures = { ...this.unseenFailures, [door]: this.unseenFailures[door] + 1, last_at: at };
        this.save();
      },
      cancel: () => {
        if (settled) return;
        settled = true;
        const now = this.doors.get(door);
        if (now === mine) {
          if (before) this.doors.set(door, before);
          else this.doors.delete(door);
        } else if (now) this.doors.set(door, { ...now, failures: Math.max(0, now.failures - 1) });
      },
    };
  }

  /** The owner's PIN, typed right: every door starts afresh, and what the owner had not seen is handed over. */
  succeeded(): OwnerFailures {
    const seen = this.unseenFailures;
    this.doors.clear();
    this.unseenFailures = noFailures();
    this.save();
    return seen;
  }

  private save(): void {
    const doors: Stored['doors'] = {};
    for (const [door, d] of this.doors) if (d.failures > 0) doors[door] = { failures: d.failures, at: d.lastAt };
    const value: Stored = { doors, unseen: this.unseenFailures };
    try {
      this.settings.set(STORE_KEY, value);
    } catch {
      // A full disk: the counts stand in memory; written again with the next change.
    }
  }
}
