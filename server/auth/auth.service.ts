import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock/clock.port.js';
import type { AdminKey, SessionStatus } from '../contract/session.contract.js';
import { isValidPin } from '../config.js';
import { AppError, ConflictError, ForbiddenError, OwnerKeyRequiredError, UnauthorizedError, ValidationError } from '../core/errors.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import { hashPin, verifyPin } from './pin-hash.js';
import type { SessionRepository } from './session.repository.js';

/** The owner's PIN (the company's): the first run's PIN and `BOOTHDECK_ADMIN_PIN`. */
const PIN_KEY = 'admin.pin_hash';
/** The event PIN (the renter's), set by the owner from the console. */
const EVENT_PIN_KEY = 'admin.event_pin_hash';

export interface AuthOptions {
  /** Hard limit of a session, whatever its activity. */
  sessionTtlMs: number;
  /** A session unused this long is over; the console locks itself well before. */
  sessionIdleMs: number;
  /** What the console waits, without a touch, before it locks itself. */
  consoleIdleLockMs: number;
  /** The owner's key, unused this long (no owner-only request), drops the session to the event key. */
  ownerIdleMs: number;
}

export const defaultAuthOptions: AuthOptions = {
  sessionTtlMs: 12 * 60 * 60_000,
  sessionIdleMs: 30 * 60_000,
  consoleIdleLockMs: 5 * 60_000,
  ownerIdleMs: 2 * 60_000,
};

/** Refreshing last_seen on every request would write on every click; once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;

export interface ClientInfo {
  address: string;
  /** Connected over loopback: the booth itself. */
  isLocal: boolean;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A session this process has seen, timed on the monotonic clock. */
interface LiveSession {
  createdMono: number;
  seenMono: number;
  writtenMono: number;
  /** Last use of the owner's key; undefined while the session holds only the event key. */
  ownerSeenMono: number | undefined;
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
 * The owner's key lives only in memory and only while used (`ownerIdleMs`): unused, or after a
 * restart, the session goes on with the event key, and the console asks for the owner's PIN again.
 */
export class AuthService {
  private readonly live = new Map<string, LiveSession>();

  constructor(
    private readonly settings: SettingsRepository,
    private readonly sessions: SessionRepository,
    private readonly limiter: AttemptLimiter,
    private readonly clock: Clock,
    private readonly options: AuthOptions = defaultAuthOptions,
  ) {}

  private storedHash(key = PIN_KEY): string | undefined {
    const value = this.settings.get(key);
    return typeof value === 'string' ? value : undefined;
  }

  isPinSet(): boolean {
    return this.storedHash() !== undefined;
  }

  isEventPinSet(): boolean {
    return this.storedHash(EVENT_PIN_KEY) !== undefined;
  }

  /**
   * The PIN given at start (the owner's) replaces the stored one; a changed PIN signs everybody
   * out. An event PIN equal to it would open the owner's key to the renter: it is dropped.
   */
  async applyConfiguredPin(pin: string): Promise<void> {
    const eventHash = this.storedHash(EVENT_PIN_KEY);
    if (eventHash && (await verifyPin(pin, eventHash))) this.settings.delete(EVENT_PIN_KEY);
    const stored = this.storedHash();
    if (stored && (await verifyPin(pin, stored))) return;
    this.settings.set(PIN_KEY, await hashPin(pin));
    this.sessions.deleteAll();
    this.live.clear();
  }

  status(token: string | undefined, clientIsLocal: boolean): SessionStatus {
    const pinSet = this.isPinSet();
    return {
      authenticated: this.authenticate(token),
      pin_set: pinSet,
      first_run_allowed: !pinSet && clientIsLocal,
      idle_lock_seconds: Math.round(this.options.consoleIdleLockMs / 1000),
      level: this.level(token) ?? null,
      event_pin_set: this.isEventPinSet(),
      owner_idle_seconds: Math.round(this.options.ownerIdleMs / 1000),
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
    this.live.set(tokenHash, { createdMono: mono, seenMono: mono, writtenMono: mono, ownerSeenMono: key === 'owner' ? mono : undefined });
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
    const session = {
      createdMono: mono - (now - row.created_at),
      seenMono: mono - (now - row.last_seen_at),
      writtenMono: mono,
      ownerSeenMono: undefined,
    };
    this.live.set(tokenHash, session);
    return session;
  }

  get sessionMaxAgeMs(): number {
    return this.options.sessionTtlMs;
  }

  /** Which key a PIN is, if any; both hashes are checked whatever the first says (same cost either way). */
  private async keyOfPin(pin: string): Promise<AdminKey | undefined> {
    const owner = this.storedHash();
    const event = this.storedHash(EVENT_PIN_KEY);
    const [isOwner, isEvent] = await Promise.all([owner ? verifyPin(pin, owner) : false, event ? verifyPin(pin, event) : false]);
    return isOwner ? 'owner' : isEvent ? 'event' : undefined;
  }

  /** The booth's keypad counts this down, rather than finding out on the next try. */
  private waitAfterFailure(client: ClientInfo): number {
    return client.isLocal ? this.limiter.localWaitSeconds() : 0;
  }

  /** Either PIN opens a session, with its key; the same attempt limit counts both. */
  async signIn(pin: string, client: ClientInfo): Promise<string> {
    if (!this.storedHash()) throw new ConflictError('No admin PIN is set yet; set one at the booth first', 'pin_not_set');
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    const key = await this.keyOfPin(pin);
    if (!key) {
      const wait = this.waitAfterFailure(client);
      throw new UnauthorizedError('Wrong PIN', wait > 0 ? { retry_after_seconds: wait } : undefined);
    }
    succeeded();
    return this.openSession(key);
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
    if (session.ownerSeenMono !== undefined && mono - session.ownerSeenMono >= this.options.ownerIdleMs) session.ownerSeenMono = undefined;
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

  /** The key a session holds right now (the owner's lapses when unused); undefined without a session. */
  level(token: string | undefined): AdminKey | undefined {
    const session = this.session(token);
    if (!session) return undefined;
    return session.ownerSeenMono === undefined ? 'event' : 'owner';
  }

  /**
   * Lets a request through when its session holds `key`: 401 without a session, 403
   * `owner_key_required` when the owner's key is needed and the session holds only the event key.
   * Each use of the owner's key slides its own idle window.
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
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    const stored = this.storedHash();
    if (!stored || !(await verifyPin(pin, stored))) throw wrongPin(this.waitAfterFailure(client));
    succeeded();
    // Looked up again: the session may have been signed out while the PIN was being checked.
    const session = this.session(token);
    if (!session) throw new UnauthorizedError();
    session.ownerSeenMono = this.clock.monotonic();
  }

  /** The owner hands the console back: the session keeps only the event key. */
  dropOwner(token: string | undefined): void {
    const session = this.session(token);
    if (session) session.ownerSeenMono = undefined;
  }

  /** First run: only a client at the booth itself may choose the PIN, and only once. */
  async setInitialPin(pin: string, clientIsLocal: boolean): Promise<string> {
    if (!clientIsLocal) throw new ForbiddenError('The first PIN can only be set at the booth itself', 'not_local');
    if (this.isPinSet()) throw new ConflictError('An admin PIN is already set', 'pin_already_set');
    if (!isValidPin(pin)) throw new ValidationError('The PIN must be 4 to 8 digits');
    this.settings.set(PIN_KEY, await hashPin(pin));
    return this.openSession('owner');
  }

  private signOutOthers(token: string): void {
    const keep = hashToken(token);
    this.sessions.deleteAllExcept(keep);
    for (const key of [...this.live.keys()]) if (key !== keep) this.live.delete(key);
  }

  /** Changing the owner's PIN needs the current one and signs out every other session. */
  async changePin(token: string, currentPin: string, newPin: string, client: ClientInfo): Promise<void> {
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    const stored = this.storedHash();
    if (!stored || !(await verifyPin(currentPin, stored))) throw new ForbiddenError('The current PIN is wrong', 'wrong_pin');
    succeeded();
    await this.refuseEventPin(newPin);
    this.settings.set(PIN_KEY, await hashPin(newPin));
    this.signOutOthers(token);
  }

  private async refuseEventPin(pin: string): Promise<void> {
    const event = this.storedHash(EVENT_PIN_KEY);
    if (event && (await verifyPin(pin, event)))
      throw new ConflictError('The owner PIN must differ from the event PIN', 'pin_same_as_event');
  }

  /**
   * Sets or replaces the renter's PIN (the owner's key is checked by the route). Whoever held the
   * old one is signed out: a new client does not share the console with the previous one.
   */
  async setEventPin(token: string, pin: string): Promise<void> {
    if (!isValidPin(pin)) throw new ValidationError('The PIN must be 4 to 8 digits');
    const owner = this.storedHash();
    if (owner && (await verifyPin(pin, owner)))
      throw new ConflictError('The event PIN must differ from the owner PIN', 'pin_same_as_owner');
    this.settings.set(EVENT_PIN_KEY, await hashPin(pin));
    this.signOutOthers(token);
  }

  /** Without an event PIN, only the owner's PIN opens the console. */
  clearEventPin(token: string): void {
    this.settings.delete(EVENT_PIN_KEY);
    this.signOutOthers(token);
  }
}
