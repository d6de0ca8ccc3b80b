import type { SettingsRepository } from '../settings/settings.repository.js';
import { hashPin, verifyPin } from './pin-hash.js';

/** The owner's PIN (the company's): the first run's PIN and `BOOTHDECK_ADMIN_PIN`. */
const OWNER_KEY = 'admin.pin_hash';
/** The event PIN (the renter's), set by the owner from the console. */
const EVENT_KEY = 'admin.event_pin_hash';
/** Whether the owner's PIN has fewer than OWNER_PIN_MIN_DIGITS digits; unknown until it is typed or set. */
const OWNER_SHORT_KEY = 'admin.pin_short';

/**
 * The owner's PIN has at least this many digits while an event PIN exists: with the renter
 * holding a key to the console, the owner's PIN is what stands between them and the booth.
 */
export const OWNER_PIN_MIN_DIGITS = 6;

/**
 * Both PINs, as scrypt hashes in the settings table, and the one fact kept about the owner's in
 * clear: whether it is shorter than OWNER_PIN_MIN_DIGITS (a yes or no, never its length).
 */
export class PinStore {
  constructor(private readonly settings: SettingsRepository) {}

  private hash(key: string): string | undefined {
    const value = this.settings.get(key);
    return typeof value === 'string' ? value : undefined;
  }

  get ownerSet(): boolean {
    return this.hash(OWNER_KEY) !== undefined;
  }

  get eventSet(): boolean {
    return this.hash(EVENT_KEY) !== undefined;
  }

  async isOwner(pin: string): Promise<boolean> {
    const stored = this.hash(OWNER_KEY);
    return stored !== undefined && verifyPin(pin, stored);
  }

  async isEvent(pin: string): Promise<boolean> {
    const stored = this.hash(EVENT_KEY);
    return stored !== undefined && verifyPin(pin, stored);
  }

  async setOwner(pin: string): Promise<void> {
    this.settings.set(OWNER_KEY, await hashPin(pin));
    this.noteOwnerLength(pin);
  }

  async setEvent(pin: string): Promise<void> {
    this.settings.set(EVENT_KEY, await hashPin(pin));
  }

  clearEvent(): void {
    this.settings.delete(EVENT_KEY);
  }

  /** The owner's PIN typed right: a booth set up before the flag existed learns it here. */
  noteOwnerLength(pin: string): void {
    const short = pin.length < OWNER_PIN_MIN_DIGITS;
    if (this.settings.get(OWNER_SHORT_KEY) !== short) this.settings.set(OWNER_SHORT_KEY, short);
  }

  /** The owner's PIN is known to be shorter than the rule while an event PIN exists. */
  get ownerTooShort(): boolean {
    return this.eventSet && this.settings.get(OWNER_SHORT_KEY) === true;
  }
}
