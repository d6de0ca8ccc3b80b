import { ApiError } from './http.js';
import { fr } from './i18n/fr.js';
import { t, type MessageKey } from './i18n/index.js';

/** Why a field was refused, whatever words the server (or the capture app behind it) used. */
export type IssueReason =
  | 'file_missing'
  | 'not_number'
  | 'not_whole'
  | 'required'
  | 'too_long'
  | 'too_small'
  | 'too_big'
  | 'bad_color'
  | 'not_available'
  | 'unknown_field'
  | 'not_an_image'
  | 'invalid';

export interface FieldIssue {
  field: string;
  /** A reason the server named itself, when it does. */
  reason?: string;
  message?: string;
  /** The action's position, counted from 0, when the issue is about one action of the list. */
  index?: number | null;
}

const REASONS: readonly IssueReason[] = [
  'file_missing',
  'not_number',
  'not_whole',
  'required',
  'too_long',
  'too_small',
  'too_big',
  'bad_color',
  'not_available',
  'unknown_field',
  'not_an_image',
  'invalid',
];

/** Ordered: the first pattern that matches the server's message names the reason. */
const PATTERNS: readonly [RegExp, IssueReason][] = [
  [/^unknown field$/i, 'unknown_field'],
  [/not available for/i, 'not_available'],
  [/does not point to a file|does not exist|not found|no such file|file.*missing/i, 'file_missing'],
  [/not an image|image .*(expected|required)/i, 'not_an_image'],
  [/received undefined|is required|field required|missing/i, 'required'],
  [/too long|too_long|at most \d+ char/i, 'too_long'],
  [/too small|greater than|>=?|at least/i, 'too_small'],
  [/too big|less than|<=?|at most/i, 'too_big'],
  [/whole|integer/i, 'not_whole'],
  [/expected number|valid number|number|float/i, 'not_number'],
  [/colou?r/i, 'bad_color'],
];

export function reasonOf(issue: FieldIssue): IssueReason {
  if (issue.reason && (REASONS as readonly string[]).includes(issue.reason)) return issue.reason as IssueReason;
  const message = issue.message ?? '';
  return PATTERNS.find(([pattern]) => pattern.test(message))?.[1] ?? 'invalid';
}

export const isKey = (key: string): key is MessageKey => key in fr;

/** The field as its form names it ("Cadre"), never its dotted API name. */
export function fieldLabel(field: string): string {
  const key = `error.label.${field}`;
  if (isKey(key)) return t(key);
  // Nested API fields ("hardware.relay.pin"): the last part may still be one the console knows.
  const last = `error.label.${field.split('.').pop() ?? ''}`;
  return isKey(last) ? t(last) : t('error.field.unknown');
}

/** "Action 2 — Cadre : ce fichier n'existe pas dans les fichiers de la borne." */
export function issueSentence(issue: FieldIssue): string {
  const sentence = t('error.sentence', { field: fieldLabel(issue.field), reason: t(`error.reason.${reasonOf(issue)}`) });
  return typeof issue.index === 'number' ? t('error.action', { number: issue.index + 1, sentence }) : sentence;
}

/** The field issues an error's details carry; anything that is not one is left out. */
export function issuesOf(details: unknown): FieldIssue[] {
  const list = (details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown): FieldIssue[] => {
    if (typeof item !== 'object' || item === null) return [];
    const raw = item as Record<string, unknown>;
    if (typeof raw.field !== 'string') return [];
    return [
      {
        field: raw.field,
        reason: typeof raw.reason === 'string' ? raw.reason : undefined,
        message: typeof raw.message === 'string' ? raw.message : undefined,
        index: typeof raw.index === 'number' ? raw.index : null,
      },
    ];
  });
}

const CODE_KEYS: Record<string, MessageKey> = {
  network: 'error.code.network',
  capture_app_error: 'error.code.capture_app_error',
  capture_app_rejected: 'error.code.capture_app_rejected',
  validation_failed: 'error.code.validation_failed',
  stale_version: 'error.code.stale_version',
  not_found: 'error.code.not_found',
  photo_unavailable: 'error.code.photo_unavailable',
  slug_taken: 'error.code.slug_taken',
  preset_exists: 'error.code.preset_exists',
  conflict: 'error.code.conflict',
  maintenance_busy: 'error.code.maintenance_busy',
  relay_resting: 'error.code.relay_resting',
  unauthorized: 'error.code.unauthorized',
  wrong_pin: 'error.code.wrong_pin',
  rate_limited: 'error.code.rate_limited',
  not_local: 'error.code.not_local',
  forbidden: 'error.code.forbidden',
  cross_origin: 'error.code.forbidden',
  pin_not_set: 'error.code.pin_not_set',
  pin_already_set: 'error.code.pin_already_set',
  payload_too_large: 'error.code.payload_too_large',
  disk_full: 'error.code.disk_full',
  storage_full: 'error.code.disk_full',
  insufficient_storage: 'error.code.disk_full',
  invalid_json: 'error.code.bad_request',
  unsupported_encoding: 'error.code.bad_request',
  unsupported_media_type: 'error.code.bad_request',
  request_aborted: 'error.code.bad_request',
  bad_request: 'error.code.bad_request',
  internal_error: 'error.code.server',
  command_failed: 'error.code.command_failed',
  quota_exceeded: 'error.code.quota_exceeded',
  printer_unavailable: 'error.code.printer_unavailable',
  print_unavailable: 'error.code.print_unavailable',
  no_printer: 'error.code.no_printer',
  session_required: 'error.code.session_required',
  not_printable: 'error.code.not_printable',
  print_disabled: 'error.code.print_disabled',
  no_photo: 'error.code.no_photo',
  not_countable: 'error.code.not_countable',
  not_cancellable: 'error.code.not_cancellable',
  publish_not_configured: 'error.code.publish_not_configured',
  host_not_allowed: 'error.code.host_not_allowed',
  too_many_streams: 'error.code.too_many_streams',
  not_retryable: 'error.code.not_retryable',
  owner_key_required: 'error.code.owner_key_required',
  route_key_undeclared: 'error.code.route_key_undeclared',
  pin_same_as_owner: 'error.code.pin_same_as_owner',
  pin_same_as_event: 'error.code.pin_same_as_event',
  capture_not_kept: 'error.code.capture_not_kept',
  printer_not_permitted: 'error.code.printer_not_permitted',
  publish_not_published: 'error.code.publish_not_published',
  owner_pin_resting: 'error.code.owner_pin_resting',
  owner_pin_too_short: 'error.code.owner_pin_too_short',
  exports_busy: 'error.code.exports_busy',
  password_too_weak: 'error.code.password_too_weak',
  folder_outside_root: 'error.code.folder_outside_root',
};

/**
 * Codes whose own sentence says more than their field's (« cette valeur n’est pas acceptée »): the
 * field is named for the form, but why it is refused is the code's to say.
 */
const CODE_OVER_ISSUES: ReadonlySet<string> = new Set(['owner_pin_too_short', 'password_too_weak', 'folder_outside_root']);

/** The folder galleries must be in, as the refusal names it. */
const rootOf = (details: unknown): string | undefined => {
  const root = (details as { root?: unknown } | undefined)?.root;
  return typeof root === 'string' && root.length > 0 ? root : undefined;
};

/** The sentence a server error code is told in, or null when the code has none of its own. */
export function codeKey(code: string, options: DescribeOptions = {}): MessageKey | null {
  if (code === 'capture_app_unavailable') {
    return options.reading ? 'error.code.capture_app_unavailable.read' : 'error.code.capture_app_unavailable.write';
  }
  return CODE_KEYS[code] ?? null;
}

function byStatus(status: number): MessageKey {
  if (status === 404) return 'error.code.not_found';
  if (status === 409) return 'error.code.conflict';
  if (status === 403) return 'error.code.forbidden';
  if (status === 429) return 'error.code.rate_limited';
  if (status === 507) return 'error.code.disk_full';
  if (status >= 500) return 'error.code.server';
  return 'error.code.bad_request';
}

export interface DescribeOptions {
  /** A read changes nothing, so it must not say "nothing was changed". */
  reading?: boolean;
}

/** Words for a person, chosen by the error's code and fields: the server's own message is never shown. */
export function describeError(err: unknown, options: DescribeOptions = {}): string {
  if (!(err instanceof ApiError)) return t('error.code.unexpected');
  if (err.status === 0) return t('error.code.network');
  if (err.code === 'capture_app_unavailable') return t(codeKey(err.code, options) ?? 'error.code.server');
  const issues = issuesOf(err.details);
  if (issues.length > 0 && err.status === 400 && !CODE_OVER_ISSUES.has(err.code)) return issues.map(issueSentence).join(' ');
  const root = err.code === 'folder_outside_root' ? rootOf(err.details) : undefined;
  if (root !== undefined) return t('error.code.folder_outside_root.named', { root });
  return t(codeKey(err.code) ?? byStatus(err.status));
}
