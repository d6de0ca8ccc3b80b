import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

/** The folder of the data folder where every secret of the booth is kept, and nothing else. */
export const SECRETS_DIR = 'secrets';
const KEY_FILE = 'boothdeck.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What a sealed blob starts with; a sealed text starts with `s1:`. */
const MAGIC = Buffer.from('BDS1', 'latin1');
const TEXT_PREFIX = 's1:';

/** Where the secrets folder of a data folder is. */
export const secretsDir = (dataDir: string): string => path.join(dataDir, SECRETS_DIR);

/**
 * Seals the booth's secrets (the publishing destination's password, the protected galleries'
 * keys) with AES-256-GCM under one key kept in `<data folder>/secrets/boothdeck.key` (0600 in a
 * 0700 folder): the database, which a backup, a copy or a support bundle may carry, holds only
 * sealed values, and the secrets folder is the one place to leave out. Each value is bound to its
 * purpose (the GCM's additional data), so a sealed value moved to another row does not open.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** The key of this data folder, made on first use; a key file that is not one is set aside, never overwritten. */
  static forDataDir(dataDir: string): SecretBox {
    const dir = secretsDir(dataDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const file = path.join(dir, KEY_FILE);
    if (existsSync(file)) {
      const key = readFileSync(file);
      if (key.length === KEY_BYTES) {
        chmodSync(file, 0o600);
        return new SecretBox(key);
      }
      renameSync(file, `${file}.unreadable-${Date.now()}`);
    }
    const key = randomBytes(KEY_BYTES);
    writeFileAtomicSync(file, key, 0o600);
    return new SecretBox(key);
  }

  /** A box whose key is given: for tests. */
  static withKey(key: Buffer): SecretBox {
    if (key.length !== KEY_BYTES) throw new Error('A secret box needs a 32-byte key');
    return new SecretBox(key);
  }

  seal(purpose: string, plain: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    return Buffer.concat([MAGIC, iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }

  /** The plain value; undefined when it was not sealed by this key for this purpose (or is not sealed at all). */
  open(purpose: string, sealed: Buffer): Buffer | undefined {
    if (!SecretBox.isSealed(sealed) || sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES) return undefined;
    const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const body = sealed.subarray(MAGIC.length + IV_BYTES, sealed.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  sealText(purpose: string, plain: string): string {
    return `${TEXT_PREFIX}${this.seal(purpose, Buffer.from(plain, 'utf8')).toString('base64url')}`;
  }

  openText(purpose: string, sealed: string): string | undefined {
    if (!sealed.startsWith(TEXT_PREFIX)) return undefined;
    return this.open(purpose, Buffer.from(sealed.slice(TEXT_PREFIX.length), 'base64url'))?.toString('utf8');
  }

  static isSealed(value: Buffer): boolean {
    return value.subarray(0, MAGIC.length).equals(MAGIC);
  }
}
