import { type ApiError } from '../../shared/http.js';
import { isKey, issuesOf, reasonOf } from '../../shared/error-text.js';
import { t, type MessageKey } from '../../shared/i18n/index.js';
import { describeError } from '../composables/useApiError.js';

/**
 * What to say about a refused backup: `headline` when one sentence covers the whole file (then
 * `problems` is empty), else one sentence per fault.
 */
export interface BackupProblems {
  headline: string | null;
  problems: string[];
}

const TOP = ['created_at', 'settings', 'actions', 'presets'];

/** "Préréglage 2 — nom", "Anneau LED — nombre de LED": a backup's part as the operator knows it. */
export function backupFieldLabel(field: string): string {
  const [top = '', index, ...rest] = field.split('.');
  const number = Number(index) + 1;
  if (top === 'settings' && index !== undefined) {
    // The deepest part the console can name: "hardware.led.count", else "hardware.led", else "hardware".
    const parts = [index, ...rest];
    for (let n = parts.length; n > 0; n--) {
      const key = `backup.field.${parts.slice(0, n).join('.')}`;
      if (isKey(key)) return t(key);
    }
    return t('backup.field.settings');
  }
  if ((top === 'actions' || top === 'presets') && index !== undefined && Number.isInteger(number)) {
    const one = top === 'actions' ? 'action' : 'preset';
    const key = `backup.field.${one}.${rest[0] ?? ''}`;
    return t(isKey(key) ? key : (`backup.field.${one}` as MessageKey), { number });
  }
  const key = `backup.field.${top}`;
  return TOP.includes(top) && isKey(key) ? t(key) : t('backup.field.unknown', { name: top });
}

/** The faults of a refused backup, each naming the part at fault (never the server's words). */
export function backupProblems(err: ApiError): BackupProblems {
  // issuesOf reads no list as an empty one; here they differ: without one, the error is told in its own words.
  if (!Array.isArray((err.details as { issues?: unknown } | undefined)?.issues)) return { headline: null, problems: [describeError(err)] };
  const issues = issuesOf(err.details);
  // Not a backup at all, or one from elsewhere: one sentence says it better than a list of every field.
  if (issues.some((i) => i.field === 'format' || i.field === '(body)')) return { headline: t('backup.notBackup'), problems: [] };
  if (issues.some((i) => i.field === 'version')) return { headline: t('backup.otherVersion'), problems: [] };
  const problems = issues.map((i) => {
    // The backup's own words for an empty name: a field to fill in.
    const reason = /must not be empty/i.test(i.message ?? '') ? 'required' : reasonOf(i);
    return t('error.sentence', { field: backupFieldLabel(i.field), reason: t(`error.reason.${reason}`) });
  });
  return { headline: null, problems };
}
