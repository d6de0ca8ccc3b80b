import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock/clock.port.js';
import type { AdminKey, OwnerFailures, SessionStatus } from '../contract/session.contract.js';
import { isValidPin } from '../config.js';
import { AppError, ConflictError, ForbiddenError, OwnerKeyRequiredError, UnauthorizedError, ValidationError } from '../core/errors.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import { OwnerBackoff } from './owner-backoff.js';
import { addFailures, PinGate, type ClientInfo } from './pin-gate.js';
import { OWNER_PIN_MIN_DIGITS, PinStore } from './pin-store.js';
import type { SessionRepository } from './session.repository.js';

export interface AuthOptions {
  /** Hard limit of a session, whatever its activity. */
  sessionTtlMs: number;
  /** A session unused this long is over; the console locks itself well before. */
  sessionIdleMs: number;
  /** What the console waits, without a touch, before it locks itself. */
  consoleIdleLockMs: number;
  /** The owner's key, unused this long (no owner-only request), drops the session to the event key. */
  ownerIdleMs: number;
  /** The owner's key lasts at most this long from the owner PIN typed right, however much it is used. */
  ownerMaxMs: number;
}

export const defaultAuthOptions: AuthOptions = {
  sessionTtlMs: 12 * 60 * 60_000,
  sessionIdleMs: 30 * 60_000,
  consoleIdleLockMs: 5 * 60_000,
  ownerIdleMs: 2 * 60_000,
  ownerMaxMs: 15 * 60_000,
};

/** Refreshing last_seen on every request would write on every click; once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;

export type { ClientInfo } from './pin-gate.js';

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A session this process has seen, timed on the monotonic clock. */
interface LiveSession {
  createdMono: number;
  seenMono: number;
  writtenMono: number;
  /** Last use of the owner's key; undefined while the session holds only the event key. */
  ownerSeenMono: number | undefined;
  /** When the owner's PIN gave this session the owner's key: its absolute limit runs from here. */
  ownerSinceMono: number | undefined;
  /** Wrong owner PINs the owner had not seen when they came in, shown for the rest of the session. */
  ownerNotice: OwnerFailures | undefined;
}

const wrongPin = (wait: number): AppError =>
  new AppError(403, 'wrong_pin', 'The PIN is wrong', wait > 0 ? { retry_after_seconds: wait } : undefined);

/**
 * Sessions are stored in SQLite (they survive a restart), but their limits are measured on the
 * monotonic clock while this process runs, so a wall clock set back at a venue cannot stretch
 * them. The row is bookkeeping: when it cannot be written (a full disk), the session still
 * lives in memory and the request goes on.
 *
 * Two PINs open a session: the event PIN gives the event key, the owner's PIN the owner's key.
 * The owner's key lives only in memory, only while used (`ownerIdleMs`) and never longer than
 * `ownerMaxMs` from the owner's PIN: unused, past that, or after a restart, the session goes on
 * with the event key, and the console asks for the owner's PIN again.
 *
 * Every PIN typed goes through the general attempt limiter; the owner's PIN also through its own
 * backoff (owner-backoff.ts), which the event PIN typed right never resets.
 */
export class AuthService {
  private readonly live = new Map<string, LiveSession>();
  private readonly pins: PinStore;
  private readonly gate: PinGate;

  constructor(
    settings: SettingsRepository,
    private readonly sessions: SessionRepository,
    limiter: AttemptLimiter,
    private readonly clock: Clock,
    private readonly options: AuthOptions = defaultAuthOptions,
  ) {
    this.pins = new PinStore(settings);
    this.gate = new PinGate(this.pins, limiter, new OwnerBackoff(settings, clock));
  }

  isPinSet(): boolean {
    return this.pins.ownerSet;
  }

  isEventPinSet(): boolean {
    return this.pins.eventSet;
  }

  /**
   * The PIN given at start (the owner's) replaces the stored one; a changed PIN signs everybody
   * out. An event PIN equal to it would open the owner's key to the renter: it is dropped.
   */
  async applyConfiguredPin(pin: string): Promise<void> {
    if (await this.pins.isEvent(pin)) this.pins.clearEvent();
    if (await this.pins.isOwner(pin)) {
      this.pins.noteOwnerLength(pin);
      return;
    }
    await this.pins.setOwner(pin);
    this.sessions.deleteAll();
    this.live.clear();
  }

  status(token: string | undefined, clientIsLocal: boolean): SessionStatus {
    const pinSet = this.isPinSet();
    const session = this.session(token);
    const level = session ? this.keyOf(session) : null;
    const notice = level === 'owner' ? session?.ownerNotice : undefined;
    return {
      authenticated: session !== undefined,
      pin_set: pinSet,
      first_run_allowed: !pinSet && clientIsLocal,
      idle_lock_seconds: Math.round(this.options.consoleIdleLockMs / 1000),
      level,
      event_pin_set: this.isEventPinSet(),
      owner_idle_seconds: Math.round(this.options.ownerIdleMs / 1000),
      owner_max_seconds: Math.round(this.options.ownerMaxMs / 1000),
      ...(level === 'owner' ? { owner_pin_short: this.pins.ownerTooShort } : {}),
      ...(notice ? { owner_failures: notice } : {}),
    };
  }

  /** Session rows are bookkeeping: a write that fails (disk full) must not fail the request. */
  private bookkeep(write: () => void): void {
    try {
      write();
    } catch {
      /* the in-memory session stands; the row catches up on a later touch */
    }
  }

  private openSession(key: AdminKey): string {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashToken(token);
    const now = this.clock.now();
    const mono = this.clock.monotonic();
    this.live.set(tokenHash, {
      createdMono: mono,
      seenMono: mono,
      writtenMono: mono,
      ownerSeenMono: key === 'owner' ? mono : undefined,
      ownerSinceMono: key === 'owner' ? mono : undefined,
      ownerNotice: undefined,
    });
    this.bookkeep(() => this.sessions.deleteExpired(now, now - this.options.sessionIdleMs));
    this.bookkeep(() =>
      this.sessions.insert({ token_hash: tokenHash, created_at: now, last_seen_at: now, expires_at: now + this.options.sessionTtlMs }),
    );
    return token;
  }

  private forget(tokenHash: string): void {
    this.live.delete(tokenHash);
    this.bookkeep(() => this.sessions.delete(tokenHash));
  }

  /**
   * A session opened before this process started has only its wall-clock row: it is taken up
   * if that row is plainly live, and refused if the wall clock now reads earlier than its last
   * use (the clock stepped back: how long it really sat idle cannot be known).
   */
  private adopt(tokenHash: string): LiveSession | undefined {
    const row = this.sessions.find(tokenHash);
    if (!row) return undefined;
    const now = this.clock.now();
    if (now < row.last_seen_at || row.expires_at <= now || row.last_seen_at + this.options.sessionIdleMs <= now) return undefined;
    const mono = this.clock.monotonic();
    // The owner's key does not survive a restart: it comes back as the event key.
    const session: LiveSession = {
      createdMono: mono - (now - row.created_at),
      seenMono: mono - (now - row.last_seen_at),
      writtenMono: mono,
      ownerSeenMono: undefined,
      ownerSinceMono: undefined,
      ownerNotice: undefined,
    };
    this.live.set(tokenHash, session);
    return session;
  }

  get sessionMaxAgeMs(): number {
    return this.options.sessionTtlMs;
  }

  /** Either PIN opens a session, with its key (pin-gate.ts says how wrong PINs are counted). */
  async signIn(pin: string, client: ClientInfo): Promise<string> {
    if (!this.isPinSet()) throw new ConflictError('No admin PIN is set yet; set one at the booth first', 'pin_not_set');
    const { key, notice } = await this.gate.signIn(pin, client);
    const token = this.openSession(key);
    const session = this.live.get(hashToken(token));
    if (session && notice) session.ownerNotice = notice;
    return token;
  }

  signOut(token: string | undefined): void {
    if (token) this.forget(hashToken(token));
  }

  /** The live session of a token, its idle window slid forward; undefined when there is none. */
  private session(token: string | undefined): LiveSession | undefined {
    if (!token) return undefined;
    const tokenHash = hashToken(token);
    const session = this.live.get(tokenHash) ?? this.adopt(tokenHash);
    if (!session) {
      this.bookkeep(() => this.sessions.delete(tokenHash));
      return undefined;
    }
    const mono = this.clock.monotonic();
    if (mono - session.createdMono >= this.options.sessionTtlMs || mono - session.seenMono >= this.options.sessionIdleMs) {
      this.forget(tokenHash);
      return undefined;
    }
    session.seenMono = mono;
    if (
      session.ownerSeenMono !== undefined &&
      (mono - session.ownerSeenMono >= this.options.ownerIdleMs || mono - (session.ownerSinceMono ?? mono) >= this.options.ownerMaxMs)
    )
      this.dropOwnerKey(session);
    if (mono - session.writtenMono >= TOUCH_EVERY_MS) {
      session.writtenMono = mono;
      this.bookkeep(() => this.sessions.touch(tokenHash, this.clock.now()));
    }
    return session;
  }

  /** True for a live session; slides its idle window forward. */
  authenticate(token: string | undefined): boolean {
    return this.session(token) !== undefined;
  }

  private keyOf(session: LiveSession): AdminKey {
    return session.ownerSeenMono === undefined ? 'event' : 'owner';
  }

  private dropOwnerKey(session: LiveSession): void {
    session.ownerSeenMono = undefined;
    session.ownerSinceMono = undefined;
  }

  private grantOwner(session: LiveSession, notice: OwnerFailures | undefined): void {
    const mono = this.clock.monotonic();
    session.ownerSeenMono = mono;
    session.ownerSinceMono = mono;
    if (notice) session.ownerNotice = addFailures(session.ownerNotice, notice);
  }

  /** The key a session holds right now (the owner's lapses when unused); undefined without a session. */
  level(token: string | undefined): AdminKey | undefined {
    const session = this.session(token);
    return session ? this.keyOf(session) : undefined;
  }

  /**
   * Lets a request through when its session holds `key`: 401 without a session, 403
   * `owner_key_required` when the owner's key is needed and the session holds only the event key.
   * Each use of the owner's key slides its own idle window, never past its absolute limit.
   */
  authorize(token: string | undefined, key: AdminKey): AdminKey {
    const session = this.session(token);
    if (!session) throw new UnauthorizedError();
    if (session.ownerSeenMono === undefined) {
      if (key === 'owner') throw new OwnerKeyRequiredError();
      return 'event';
    }
    if (key === 'owner') session.ownerSeenMono = this.clock.monotonic();
    return 'owner';
  }

  /** The console asks for the owner's PIN in place: the same session takes the owner's key. */
  async elevate(token: string | undefined, pin: string, client: ClientInfo): Promise<void> {
    if (!this.session(token)) throw new UnauthorizedError();
    const notice = await this.gate.checkOwner(pin, client, wrongPin);
    // Looked up again: the session may have been signed out while the PIN was being checked.
    const session = this.session(token);
    if (!session) throw new UnauthorizedError();
    this.grantOwner(session, notice);
  }

  /** The owner hands the console back: the session keeps only the event key. */
  dropOwner(token: string | undefined): void {
    const session = this.session(token);
    if (session) this.dropOwnerKey(session);
  }

  /** An owner PIN chosen now: 4 to 8 digits, and at least OWNER_PIN_MIN_DIGITS while an event PIN exists. */
  private checkNewOwnerPin(pin: string): void {
    if (!isValidPin(pin)) throw new ValidationError('The PIN must be 4 to 8 digits');
    if (this.isEventPinSet() && pin.length < OWNER_PIN_MIN_DIGITS)
      throw new AppError(
        400,
        'owner_pin_too_short',
        `The owner PIN must have at least ${OWNER_PIN_MIN_DIGITS} digits while an event PIN is set`,
        {
          issues: [{ field: 'new_pin', message: `must be at least ${OWNER_PIN_MIN_DIGITS} digits while an event PIN is set` }],
        },
      );
  }

  /** First run: only a client at the booth itself may choose the PIN, and only once. */
  async setInitialPin(pin: string, clientIsLocal: boolean): Promise<string> {
    if (!clientIsLocal) throw new ForbiddenError('The first PIN can only be set at the booth itself', 'not_local');
    if (this.isPinSet()) throw new ConflictError('An admin PIN is already set', 'pin_already_set');
    this.checkNewOwnerPin(pin);
    await this.pins.setOwner(pin);
    return this.openSession('owner');
  }

  private signOutOthers(token: string): void {
    const keep = hashToken(token);
    this.sessions.deleteAllExcept(keep);
    for (const key of [...this.live.keys()]) if (key !== keep) this.live.delete(key);
  }

  /** Changing the owner's PIN needs the current one and signs out every other session. */
  async changePin(token: string, currentPin: string, newPin: string, client: ClientInfo): Promise<void> {
    this.checkNewOwnerPin(newPin);
    await this.gate.checkOwner(currentPin, client, () => new ForbiddenError('The current PIN is wrong', 'wrong_pin'));
    if (await this.pins.isEvent(newPin)) throw new ConflictError('The owner PIN must differ from the event PIN', 'pin_same_as_event');
    await this.pins.setOwner(newPin);
    this.signOutOthers(token);
  }

  /**
   * Sets or replaces the renter's PIN (the owner's key is checked by the route). Whoever held the
   * old one is signed out: a new client does not share the console with the previous one. An
   * owner PIN shorter than the rule is not refused here (the hand-over must go on): the dashboard
   * flags it until it is changed.
   */
  async setEventPin(token: string, pin: string): Promise<void> {
    if (!isValidPin(pin)) throw new ValidationError('The PIN must be 4 to 8 digits');
    if (await this.pins.isOwner(pin)) throw new ConflictError('The event PIN must differ from the owner PIN', 'pin_same_as_owner');
    await this.pins.setEvent(pin);
    this.signOutOthers(token);
  }

  /** Without an event PIN, only the owner's PIN opens the console. */
  clearEventPin(token: string): void {
    this.pins.clearEvent();
    this.signOutOthers(token);
  }
}
