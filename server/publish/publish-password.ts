import { estimatePasswordBits, judgePassword, PASSWORD_MIN_BITS, PASSWORD_MIN_LENGTH } from '../../common/passphrase.js';
import { AppError } from '../core/errors.js';
import type { EventRow } from '../events/event.repository.js';

/**
 * A protected gallery's files are public: its password is what an offline guess is made against.
 * A password that is short or estimated under PASSWORD_MIN_BITS (the event's own name counted as
 * known to the guesser) is refused, and nothing changes.
 */
export function refuseWeakPassword(password: string, event: EventRow): void {
  const verdict = judgePassword(password, [event.name, event.slug]);
  if (verdict === 'ok') return;
  const message =
    verdict === 'too_short'
      ? `must be at least ${PASSWORD_MIN_LENGTH} characters`
      : 'is too easy to guess: use several words, or the passphrase offered';
  throw new AppError(400, 'password_too_weak', `Invalid gallery password: password ${message}`, {
    issues: [{ field: 'password', message }],
    estimated_bits: estimatePasswordBits(password, [event.name, event.slug]),
    required_bits: PASSWORD_MIN_BITS,
  });
}
