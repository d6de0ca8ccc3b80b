import type { PublishFailure } from '../contract/publish.contract.js';
import type { EventLock } from './publish-lock.js';

/**
 * An error the publishing queue stops on for a reason of its own (not rclone's), which the console
 * turns into a sentence for the owner rather than "rclone failed".
 */
export interface PublishStop {
  readonly publishReason: PublishFailure;
}

export function publishReasonOf(err: unknown): PublishFailure | undefined {
  return typeof err === 'object' && err !== null && 'publishReason' in err ? (err as PublishStop).publishReason : undefined;
}

/** A protected gallery whose key the booth can no longer open (its secrets folder lost): nothing of it may go out. */
export class GalleryKeyLostError extends Error implements PublishStop {
  readonly publishReason = 'gallery_key_lost' as const;

  constructor() {
    super('A protected gallery’s key cannot be opened (the secrets folder was lost or replaced): set its password again');
  }
}

/** Refuses to publish with a lock whose key did not open (PublishRepository.lock gives it empty). */
export function refuseLostKey(lock: EventLock | undefined): void {
  if (lock !== undefined && lock.key.length === 0) throw new GalleryKeyLostError();
}
