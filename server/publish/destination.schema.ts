import { z } from 'zod';
import { S3_PROVIDERS, WEBDAV_VENDORS } from '../../common/publish-destinations.js';
import { hasNoControl } from '../core/util/text.js';

/*
 * Every value here ends up as one `key = value` line of the rclone file Boothdeck writes, or as
 * the path after `boothdeck:`. So no value may start another line or section (control
 * characters, a bracket), and none may hold what rclone reads as a connection string or an
 * option (`:backend,opt=value:`, `,`, `=`, quotes): such text is refused, never escaped.
 */

const CONTROL = 'must not contain control characters or line breaks';
const NO_SYNTAX = 'must not hold « , = : ; # » quotes or brackets (rclone would read them as options)';
/** What no plain field holds: rclone's connection-string syntax, the ini file's quotes, comments and sections. */
const SYNTAX = /[,=:'"`\\;#[\]{}]/;

const plain = (max: number) =>
  z
    .string({ error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .refine(hasNoControl, CONTROL)
    .refine((v) => !SYNTAX.test(v), NO_SYNTAX)
    .refine((v) => v === v.trim(), 'must not start or end with a space')
    .refine((v) => !v.startsWith('-'), 'must not start with a dash');

/** A folder under the remote's root: plain segments, no `..`, no leading or trailing slash kept. */
const subPath = plain(256)
  .refine((v) => !v.split('/').some((s) => s === '..' || s === '.'), 'must not hold . or .. segments')
  .transform((v) => v.replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, ''));

/** A local folder: absolute, and the same rules. */
const localPath = plain(256)
  .refine((v) => v.startsWith('/'), 'must be an absolute folder (starting with /)')
  .refine((v) => !v.split('/').some((s) => s === '..' || s === '.'), 'must not hold . or .. segments')
  .transform((v) => (v === '/' ? v : v.replace(/\/{2,}/g, '/').replace(/\/+$/, '')));

/** An http(s) address without credentials, query or fragment: user and password have their own fields. */
const httpUrl = z
  .string({ error: 'must be text' })
  .max(512, 'must be at most 512 characters')
  .refine(hasNoControl, CONTROL)
  // `@` is allowed in the path only (a Nextcloud user named by an e-mail address), never before the host.
  .refine((v) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s,='"`\\;#{}?:[\]]*)?$/.test(v), {
    message: 'must be an http(s) address (https://cloud.example.com/remote.php/dav/files/user) without a user, query or « , = ; # » quotes',
  })
  .refine((v) => URL.canParse(v), 'must be an http(s) address')
  .transform((v) => v.replace(/\/+$/, ''));

const hostName = z
  .string({ error: 'must be text' })
  .max(253, 'must be at most 253 characters')
  .refine(hasNoControl, CONTROL)
  .refine(
    (v) => /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(v) || /^[0-9A-Fa-f]*:[0-9A-Fa-f:.]+$/.test(v),
    'must be a host name or an IP address, nothing else',
  );

const user = plain(128).refine((v) => v !== '', 'must not be empty');

/**
 * Written obscured (WebDAV, SFTP) or as one line (an S3 secret): any printable text, no line
 * break. Never returned, never logged.
 */
const password = z
  .string({ error: 'must be text' })
  .min(1, 'must not be empty (send null to clear it)')
  .max(256, 'must be at most 256 characters')
  .refine(hasNoControl, CONTROL);

/** S3 keys are written as they are (rclone does not obscure them): their usual letters only. */
const s3Secret = z
  .string({ error: 'must be text' })
  .regex(/^[A-Za-z0-9/+._-]{8,256}$/, 'must be the secret key as the provider gave it (letters, digits, / + . _ -)');

/** A name in the owner's own rclone file, as rclone lists it; never a connection string. */
export const REMOTE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

const local = z.strictObject({ type: z.literal('local'), path: localPath });
const webdav = z.strictObject({
  type: z.literal('webdav'),
  url: httpUrl,
  vendor: z.enum(WEBDAV_VENDORS, { error: `must be one of ${WEBDAV_VENDORS.join(', ')}` }),
  user,
  path: subPath,
  password: password.nullable().optional(),
});
const sftp = z.strictObject({
  type: z.literal('sftp'),
  host: hostName,
  port: z.number({ error: 'must be a port number' }).int('must be a port number').min(1).max(65535),
  user,
  path: subPath,
  password: password.nullable().optional(),
});
const s3 = z.strictObject({
  type: z.literal('s3'),
  provider: z.enum(S3_PROVIDERS, { error: `must be one of ${S3_PROVIDERS.join(', ')}` }),
  endpoint: z.union([z.literal(''), httpUrl, hostName], { error: 'must be empty, an http(s) address or a host name' }),
  region: z.string({ error: 'must be text' }).regex(/^[a-z0-9-]{0,40}$/, 'must be a region such as eu-west-3 (or empty)'),
  access_key_id: z.string({ error: 'must be text' }).regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be the access key as the provider gave it'),
  bucket: z
    .string({ error: 'must be text' })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,62}$/, 'must be a bucket name (3 to 63 letters, digits, . _ -)'),
  path: subPath,
  password: s3Secret.nullable().optional(),
});
const rclone = z.strictObject({
  type: z.literal('rclone'),
  remote: z
    .string({ error: 'must be text' })
    .regex(REMOTE_NAME, 'must be the name of a remote of your rclone file (letters, digits, _ . -), without « : »'),
  path: subPath,
  config: z.enum(['boothdeck', 'user'], { error: 'must be boothdeck or user' }),
});

export const destinationInput = z.discriminatedUnion('type', [local, webdav, sftp, s3, rclone], {
  error: 'must be a destination of type local, webdav, sftp, s3 or rclone',
});
