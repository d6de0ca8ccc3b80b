import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock/clock.port.js';
import type { SessionStatus } from '../contract/session.contract.js';
import { isValidPin } from '../config.js';
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../core/errors.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import { hashPin, verifyPin } from './pin-hash.js';
import type { SessionRepository } from './session.repository.js';

const PIN_KEY = 'admin.pin_hash';

export interface AuthOptions {
  /** Hard limit of a session, whatever its activity. */
  sessionTtlMs: number;
  /** A session unused this long is over; the console locks itself well before. */
  sessionIdleMs: number;
  /** What the console waits, without a touch, before it locks itself. */
  consoleIdleLockMs: number;
}

export const defaultAuthOptions: AuthOptions = {
  sessionTtlMs: 12 * 60 * 60_000,
  sessionIdleMs: 30 * 60_000,
  consoleIdleLockMs: 5 * 60_000,
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
}

/**
 * Sessions are stored in SQLite (they survive a restart), but their limits are measured on the
 * monotonic clock while this process runs, so a wall clock set back at a venue cannot stretch
 * them. The row is bookkeeping: when it cannot be written (a full disk), the session still
 * lives in memory and the request goes on.
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

  private storedHash(): string | undefined {
    const value = this.settings.get(PIN_KEY);
    return typeof value === 'string' ? value : undefined;
  }

  isPinSet(): boolean {
    return this.storedHash() !== undefined;
  }

  /** The PIN given at start replaces the stored one; a changed PIN signs everybody out. */
  async applyConfiguredPin(pin: string): Promise<void> {
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

  private openSession(): string {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashToken(token);
    const now = this.clock.now();
    const mono = this.clock.monotonic();
    this.live.set(tokenHash, { createdMono: mono, seenMono: mono, writtenMono: mono });
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
    const session = { createdMono: mono - (now - row.created_at), seenMono: mono - (now - row.last_seen_at), writtenMono: mono };
    this.live.set(tokenHash, session);
    return session;
  }

  get sessionMaxAgeMs(): number {
    return this.options.sessionTtlMs;
  }

  async signIn(pin: string, client: ClientInfo): Promise<string> {
    const stored = this.storedHash();
    if (!stored) throw new ConflictError('No admin PIN is set yet; set one at the booth first', 'pin_not_set');
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    if (!(await verifyPin(pin, stored))) {
      // The booth's keypad counts this down, rather than finding out on the next try.
      const wait = client.isLocal ? this.limiter.localWaitSeconds() : 0;
      throw new UnauthorizedError('Wrong PIN', wait > 0 ? { retry_after_seconds: wait } : undefined);
    }
    succeeded();
    return this.openSession();
  }

  signOut(token: string | undefined): void {
    if (token) this.forget(hashToken(token));
  }

  /** True for a live session; slides its idle window forward. */
  authenticate(token: string | undefined): boolean {
    if (!token) return false;
    const tokenHash = hashToken(token);
    const session = this.live.get(tokenHash) ?? this.adopt(tokenHash);
    if (!session) {
      this.bookkeep(() => this.sessions.delete(tokenHash));
      return false;
    }
    const mono = this.clock.monotonic();
    if (mono - session.createdMono >= this.options.sessionTtlMs || mono - session.seenMono >= this.options.sessionIdleMs) {
      this.forget(tokenHash);
      return false;
    }
    session.seenMono = mono;
    if (mono - session.writtenMono >= TOUCH_EVERY_MS) {
      session.writtenMono = mono;
      this.bookkeep(() => this.sessions.touch(tokenHash, this.clock.now()));
    }
    return true;
  }

  /** First run: only a client at the booth itself may choose the PIN, and only once. */
  async setInitialPin(pin: string, clientIsLocal: boolean): Promise<string> {
    if (!clientIsLocal) throw new ForbiddenError('The first PIN can only be set at the booth itself', 'not_local');
    if (this.isPinSet()) throw new ConflictError('An admin PIN is already set', 'pin_already_set');
    if (!isValidPin(pin)) throw new ValidationError('The PIN must be 4 to 8 digits');
    this.settings.set(PIN_KEY, await hashPin(pin));
    return this.openSession();
  }

  /** Changing the PIN needs the current one and signs out every other session. */
  async changePin(token: string, currentPin: string, newPin: string, client: ClientInfo): Promise<void> {
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    const stored = this.storedHash();
    if (!stored || !(await verifyPin(currentPin, stored))) throw new ForbiddenError('The current PIN is wrong', 'wrong_pin');
    succeeded();
    this.settings.set(PIN_KEY, await hashPin(newPin));
    const keep = hashToken(token);
    this.sessions.deleteAllExcept(keep);
    for (const key of [...this.live.keys()]) if (key !== keep) this.live.delete(key);
  }
}
