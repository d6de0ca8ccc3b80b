import { createCipheriv, createHmac, pbkdf2, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);

/**
 * PBKDF2-HMAC-SHA-256 iterations (OWASP's 2023 figure). The key is derived once on the booth when
 * the password is set, and once per visit in the guest's browser (about a second on an old phone).
 */
export const LOCK_ITERATIONS = 600_000;

/** Every sealed file starts with this: no file of a protected gallery begins like a JPEG, a PNG or a WebP. */
export const SEALED_MAGIC = Buffer.from('BDK1', 'latin1');
const IV_BYTES = 12;

/**
 * What the booth keeps of an event's password: the salt, the iteration count and the derived AES
 * key, never the password itself (a guest's reused password is not on the card). The key opens
 * the gallery, so it lives in its own table, never in an answer, a log or a backup.
 */
export interface EventLock {
  salt: Buffer;
  iterations: number;
  key: Buffer;
}

export async function deriveLock(password: string, iterations = LOCK_ITERATIONS): Promise<EventLock> {
  const salt = randomBytes(16);
  const key = await pbkdf2Async(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256');
  return { salt, iterations, key };
}

/**
 * The lock's mark in a row's version: a new password (a new salt) makes every file a new version,
 * so the queue sends them all again under new names and removes the old ones, as after a filter.
 */
export const lockMark = (lock: EventLock): string => lock.salt.toString('hex').slice(0, 8);

/** A file's name in a protected gallery: a keyed hash of its plain name, which tells nothing without the key. */
export const sealedName = (lock: EventLock, plain: string): string =>
  createHmac('sha256', lock.key).update(plain).digest('base64url').slice(0, 27);

/** AES-256-GCM of a small buffer: magic, a random IV, the ciphertext and its tag (as Web Crypto wants them together). */
export function sealBuffer(lock: EventLock, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', lock.key, iv);
  return Buffer.concat([SEALED_MAGIC, iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** The same for a file, streamed: a video is never held whole in the booth's memory. */
export async function sealFile(key: Buffer, from: string, to: string): Promise<void> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  let started = false;
  const framed = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!started) {
        started = true;
        this.push(Buffer.concat([SEALED_MAGIC, iv]));
      }
      done(null, cipher.update(chunk));
    },
    flush(done) {
      if (!started) this.push(Buffer.concat([SEALED_MAGIC, iv]));
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
  await pipeline(createReadStream(from), framed, createWriteStream(to, { mode: 0o644 }));
}
