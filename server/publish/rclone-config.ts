import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Destination } from '../contract/publish.contract.js';
import { hasNoControl } from '../core/util/text.js';

/** The one remote Boothdeck writes in its own file: rclone is only ever given `boothdeck:<path>`. */
export const REMOTE = 'boothdeck';

/**
 * rclone's fixed, public key for `rclone obscure` (fs/config/obscure). Obscuring is not
 * encryption: anyone with the file can reveal the password. It keeps the password from being read
 * over a shoulder; the file itself is 0600.
 */
const OBSCURE_KEY = Buffer.from('9c935b48730a554d6bfd7c63c886a92bd390198eb8128afbf4de162b8b95f638', 'hex');

/** `rclone obscure`: AES-256-CTR under rclone's key, a random 16-byte IV first, base64 raw URL. */
export function obscure(plain: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-ctr', OBSCURE_KEY, iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64url');
}

/** `rclone reveal`, for tests. */
export function reveal(obscured: string): string {
  const data = Buffer.from(obscured, 'base64url');
  const decipher = createDecipheriv('aes-256-ctr', OBSCURE_KEY, data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]).toString('utf8');
}

/** Only these options are ever written: none of them runs a program or names a file. */
type Option =
  | 'type'
  | 'url'
  | 'vendor'
  | 'user'
  | 'pass'
  | 'host'
  | 'port'
  | 'provider'
  | 'env_auth'
  | 'access_key_id'
  | 'secret_access_key'
  | 'region'
  | 'endpoint';

function lines(dest: Destination, secret: string | null): [Option, string][] {
  switch (dest.type) {
    case 'local':
      return [['type', 'local']];
    case 'webdav':
      return [
        ['type', 'webdav'],
        ['url', dest.url],
        ['vendor', dest.vendor],
        ['user', dest.user],
        ...(secret === null ? [] : [['pass', obscure(secret)] as [Option, string]]),
      ];
    case 'sftp':
      return [
        ['type', 'sftp'],
        ['host', dest.host],
        ['port', String(dest.port)],
        ['user', dest.user],
        ...(secret === null ? [] : [['pass', obscure(secret)] as [Option, string]]),
      ];
    case 's3':
      return [
        ['type', 's3'],
        ['provider', dest.provider],
        // Credentials come from these fields only, never from the service's environment.
        ['env_auth', 'false'],
        ['access_key_id', dest.access_key_id],
        ...(secret === null ? [] : [['secret_access_key', secret] as [Option, string]]),
        ...(dest.region === '' ? [] : [['region', dest.region] as [Option, string]]),
        ...(dest.endpoint === '' ? [] : [['endpoint', dest.endpoint] as [Option, string]]),
      ];
    case 'rclone':
      throw new Error('A remote of the owner’s own file is never written by Boothdeck');
  }
}

/**
 * Boothdeck's rclone file for a typed destination: one section, the fields it was given. The
 * schemas already refused anything that could start a line; this checks again, since a torn
 * value here would become an option rclone obeys.
 */
export function renderRcloneConfig(dest: Destination, secret: string | null): string {
  const body = lines(dest, secret).map(([key, value]) => {
    if (!hasNoControl(value) || /^\s*[[#;]/.test(value) || value !== value.trim())
      throw new Error(`Refusing to write the rclone option ${key}: its value could start another line`);
    return `${key} = ${value}\n`;
  });
  return `# Written by Boothdeck from the publishing settings; it is rewritten on every save.\n[${REMOTE}]\n${body.join('')}`;
}

/** The rclone path of the destination's root folder. */
export function destinationRoot(dest: Destination): string {
  switch (dest.type) {
    case 'rclone':
      return `${dest.remote}:${dest.path}`;
    case 's3':
      return `${REMOTE}:${dest.bucket}${dest.path === '' ? '' : `/${dest.path}`}`;
    default:
      return `${REMOTE}:${dest.path}`;
  }
}
