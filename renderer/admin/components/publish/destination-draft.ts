import type {
  DestinationInput,
  DestinationType,
  DestinationView,
  PublishConfigSource,
  S3Provider,
  WebdavVendor,
} from '../../../../server/contract/publish.contract.js';

/** What happens to the stored password when the form is saved. */
export type PasswordMode = 'keep' | 'replace' | 'clear';

/**
 * The destination as the form edits it: every type's fields at once, so switching the type back
 * and forth loses nothing typed. The password is only ever what the operator types now.
 */
export interface DestinationDraft {
  type: DestinationType | 'none';
  localPath: string;
  path: string;
  url: string;
  vendor: WebdavVendor;
  user: string;
  host: string;
  port: number;
  provider: S3Provider;
  endpoint: string;
  region: string;
  access_key_id: string;
  bucket: string;
  remote: string;
  config: PublishConfigSource;
  passwordMode: PasswordMode;
  password: string;
}

export function draftOf(view: DestinationView | null): DestinationDraft {
  const draft: DestinationDraft = {
    type: view?.type ?? 'none',
    localPath: '',
    path: '',
    url: '',
    vendor: 'nextcloud',
    user: '',
    host: '',
    port: 22,
    provider: 'AWS',
    endpoint: '',
    region: '',
    access_key_id: '',
    bucket: '',
    remote: '',
    config: 'user',
    passwordMode: view?.password_set ? 'keep' : 'replace',
    password: '',
  };
  if (view === null) return draft;
  if (view.type === 'local') return { ...draft, localPath: view.path };
  const { type: _type, password_set: _set, ...fields } = view;
  return { ...draft, ...fields };
}

function passwordPart(draft: DestinationDraft): { password?: string | null } {
  if (draft.passwordMode === 'clear') return { password: null };
  if (draft.passwordMode === 'replace' && draft.password !== '') return { password: draft.password };
  return {};
}

/** What the API is sent: the chosen type's fields only. */
export function inputOf(draft: DestinationDraft): DestinationInput | null {
  const d = draft;
  switch (d.type) {
    case 'none':
      return null;
    case 'local':
      return { type: 'local', path: d.localPath.trim() };
    case 'webdav':
      return { type: 'webdav', url: d.url.trim(), vendor: d.vendor, user: d.user.trim(), path: d.path.trim(), ...passwordPart(d) };
    case 'sftp':
      return { type: 'sftp', host: d.host.trim(), port: Number(d.port), user: d.user.trim(), path: d.path.trim(), ...passwordPart(d) };
    case 's3':
      return {
        type: 's3',
        provider: d.provider,
        endpoint: d.endpoint.trim(),
        region: d.region.trim(),
        access_key_id: d.access_key_id.trim(),
        bucket: d.bucket.trim(),
        path: d.path.trim(),
        ...passwordPart(d),
      };
    case 'rclone':
      return { type: 'rclone', remote: d.remote.trim(), path: d.path.trim(), config: d.config };
  }
}

/** The server keeps a password only for the same place: the console says so before it happens. */
export function addressKey(d: DestinationDraft): string {
  switch (d.type) {
    case 'webdav':
      return `${d.url.trim().replace(/\/+$/, '')} ${d.user.trim()}`;
    case 'sftp':
      return `${d.host.trim()} ${d.port} ${d.user.trim()}`;
    case 's3':
      return `${d.provider} ${d.endpoint.trim().replace(/\/+$/, '')} ${d.access_key_id.trim()}`;
    default:
      return d.type;
  }
}

export const takesPassword = (type: DestinationDraft['type']): type is 'webdav' | 'sftp' | 's3' =>
  type === 'webdav' || type === 'sftp' || type === 's3';
