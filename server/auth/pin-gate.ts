import type { AdminKey, OwnerFailures } from '../contract/session.contract.js';
import { AppError, TooManyRequestsError, UnauthorizedError } from '../core/errors.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import type { Door, OwnerAttempt, OwnerBackoff } from './owner-backoff.js';
import type { PinStore } from './pin-store.js';

export interface ClientInfo {
  address: string;
  /** Connected over loopback: the booth itself. */
  isLocal: boolean;
}

const ownerResting = (wait: number): TooManyRequestsError =>
  new TooManyRequestsError('Too many wrong owner PINs: the owner PIN is not checked until the wait is over', wait, 'owner_pin_resting');

const doorOf = (client: ClientInfo): Door => (client.isLocal ? 'booth' : 'network');

/** Two counts of wrong owner PINs as one; undefined when there is none. */
export function addFailures(a: OwnerFailures | undefined, b: OwnerFailures): OwnerFailures | undefined {
  const sum = { booth: (a?.booth ?? 0) + b.booth, network: (a?.network ?? 0) + b.network, last_at: b.last_at ?? a?.last_at ?? null };
  return sum.booth + sum.network > 0 ? sum : undefined;
}

/**
 * Where a typed PIN is judged. Every PIN goes through the general attempt limiter (per client, the
 * network, the booth's short waits); the owner's PIN also through its own backoff at the door it
 * was typed at (owner-backoff.ts), which the event PIN typed right never resets: a renter who
 * alternates their own PIN with guesses at the owner's meets the owner's wait all the same.
 */
export class PinGate {
  constructor(
    private readonly pins: PinStore,
    private readonly limiter: AttemptLimiter,
    private readonly ownerBackoff: OwnerBackoff,
  ) {}

  /**
   * Which key a PIN is, if any. Both hashes are checked whatever the first says (same cost either
   * way); the owner's not at all while its backoff says wait (`checkOwner` false).
   */
  private async keyOfPin(pin: string, checkOwner: boolean): Promise<AdminKey | undefined> {
    const [isOwner, isEvent] = await Promise.all([checkOwner ? this.pins.isOwner(pin) : false, this.pins.isEvent(pin)]);
    return isOwner ? 'owner' : isEvent ? 'event' : undefined;
  }

  /** The booth's keypad counts this down, rather than finding out on the next try. */
  private waitAfterFailure(client: ClientInfo): number {
    return client.isLocal ? this.limiter.localWaitSeconds() : 0;
  }

  /** The owner's PIN typed right: its backoff ends, and what the owner had not seen goes to this session. */
  private ownerCameIn(pin: string, client: ClientInfo): OwnerFailures | undefined {
    this.pins.noteOwnerLength(pin);
    if (client.isLocal) this.limiter.clearLocal();
    return addFailures(undefined, this.ownerBackoff.succeeded());
  }

  /**
   * Which key a PIN opens at sign-in. A wrong PIN counts against the general limit and, as it may
   * have been a guess at the owner's, against the owner's backoff at this door; while that backoff
   * runs only the event PIN is checked, and a PIN that is not it is told so (401
   * `owner_pin_resting`: the keypad stays open for the event PIN).
   */
  async signIn(pin: string, client: ClientInfo): Promise<{ key: AdminKey; notice: OwnerFailures | undefined }> {
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    const door = doorOf(client);
    const owner = this.ownerBackoff.begin(door);
    let key: AdminKey | undefined;
    try {
      key = await this.keyOfPin(pin, owner !== undefined);
    } catch (err) {
      owner?.cancel();
      throw err;
    }
    if (key === 'owner') {
      succeeded();
      return { key, notice: this.ownerCameIn(pin, client) };
    }
    if (key === 'event') {
      succeeded();
      owner?.cancel();
      return { key, notice: undefined };
    }
    owner?.fail();
    const wait = this.waitAfterFailure(client);
    const ownerWait = this.ownerBackoff.waitSeconds(door);
    const details = {
      ...(wait > 0 ? { retry_after_seconds: wait } : {}),
      ...(ownerWait > 0 ? { owner_retry_after_seconds: ownerWait } : {}),
    };
    if (!owner)
      throw new AppError(
        401,
        'owner_pin_resting',
        'Wrong PIN; the owner PIN is resting after too many wrong ones and was not checked',
        details,
      );
    throw new UnauthorizedError('Wrong PIN', Object.keys(details).length > 0 ? details : undefined);
  }

  /**
   * Checks the owner's PIN at a door, through both limits: throws 429 `owner_pin_resting` while
   * the owner's backoff runs (nothing is checked), `onWrong`'s error for a wrong PIN.
   */
  async checkOwner(pin: string, client: ClientInfo, onWrong: (wait: number) => AppError): Promise<OwnerFailures | undefined> {
    const succeeded = this.limiter.begin(client.address, client.isLocal);
    const door = doorOf(client);
    const attempt: OwnerAttempt | undefined = this.ownerBackoff.begin(door);
    if (!attempt) {
      succeeded();
      throw ownerResting(this.ownerBackoff.waitSeconds(door));
    }
    let right: boolean;
    try {
      right = await this.pins.isOwner(pin);
    } catch (err) {
      attempt.cancel();
      throw err;
    }
    if (!right) {
      attempt.fail();
      throw onWrong(Math.max(this.waitAfterFailure(client), this.ownerBackoff.waitSeconds(door)));
    }
    succeeded();
    return this.ownerCameIn(pin, client);
  }
}
