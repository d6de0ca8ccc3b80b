import { ApiError } from '../../shared/http.js';
import { t } from '../../shared/i18n/index.js';

/** Words for an operator, from whatever a service threw. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return t('common.error.network');
    if (err.code === 'disk_full') return t('common.error.diskFull');
    if (err.code === 'stale_version') return t('actions.error.stale');
    if (err.code === 'capture_app_unavailable') return t('actions.error.capture');
    return err.message;
  }
  return t('common.error.unknown', { message: err instanceof Error ? err.message : String(err) });
}
