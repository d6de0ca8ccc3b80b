/**
 * What an attacker with the console's key would type to make rclone run a program or read a
 * file: every such rclone option, written as a connection string, a named remote's override, an
 * extra line of the config file, or a command-line flag.
 */

/** rclone options that run a program, or name a file rclone would read, across the backends Boothdeck offers and rclone's globals. */
export const DANGEROUS_OPTIONS = [
  'bearer_token_command',
  'password_command',
  'ssh',
  'server_command',
  'md5sum_command',
  'sha1sum_command',
  'key_file',
  'pubkey_file',
  'known_hosts_file',
  'key_use_agent',
  'service_account_file',
  'shared_credentials_file',
  'env_auth',
  'config',
  'ca_cert',
  'client_cert',
  'client_key',
  'files_from',
  'log_file',
] as const;

/** Each way of slipping `option` into one text field. */
export function payloads(option: string, marker: string): string[] {
  const value = option.endsWith('_file') || option === 'config' || option.endsWith('_from') ? '/etc/shadow' : `touch ${marker}`;
  return [
    `:webdav,url='http://127.0.0.1:9/',${option}='${value}':galerie`,
    `:sftp,host=127.0.0.1,${option}='${value}':`,
    `dav,${option}='${value}':galerie`,
    `x\n${option} = ${value}`,
    `x\r\n[boothdeck]\ntype = local\n${option} = ${value}`,
    `--${option.replace(/_/g, '-')}=${value}`,
    `x,${option}=${value}`,
    `${option}=${value}`,
  ];
}

type Fields = Record<string, unknown>;

/** A valid destination of each type Boothdeck offers; each of its fields is tried in turn. */
export const VALID_DESTINATIONS: Record<string, Fields> = {
  local: { type: 'local', path: '/srv/galeries' },
  webdav: {
    type: 'webdav',
    url: 'https://cloud.example.com/remote.php/dav/files/booth',
    vendor: 'nextcloud',
    user: 'booth',
    path: 'Galeries',
    password: 'app-password',
  },
  sftp: { type: 'sftp', host: 'files.example.com', port: 22, user: 'booth', path: 'galeries', password: 'pw' },
  s3: {
    type: 's3',
    provider: 'AWS',
    endpoint: '',
    region: 'eu-west-3',
    access_key_id: 'AKIAEXAMPLE',
    bucket: 'photos-booth',
    path: 'galeries',
    password: 'secretKEY1234567890',
  },
  rclone: { type: 'rclone', remote: 'myremote', path: 'galeries', config: 'user' },
};

/** Passwords are written obscured, never as an option: any printable text is a password, and stays one. */
export const OBSCURED_SECRET: Record<string, boolean> = { webdav: true, sftp: true };
