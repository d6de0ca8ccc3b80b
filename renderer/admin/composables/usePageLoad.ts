import { computed, ref, type ComputedRef, type Ref } from 'vue';
import { ApiError } from '../../shared/http.js';
import { useI18n } from '../../shared/i18n/index.js';
import { describeError } from '../composables/useApiError.js';
import { useConnectionStore } from '../stores/connection.store.js';
import { useRecovery } from './useRecovery.js';

export interface PageLoad {
  /** What the page could not read, in words; null once a later read succeeds. */
  error: Ref<string | null>;
  /** Set while a capture-app restart explains the failure: a state to wait for, not an error. */
  waiting: ComputedRef<string | null>;
  load: () => Promise<void>;
}

const captureAway = (err: unknown): boolean =>
  err instanceof ApiError && (err.code === 'capture_app_unavailable' || err.code === 'capture_app_error');

/** A page's read: plain words on failure, no "nothing was changed", and a reload when things recover. */
export function usePageLoad(read: () => Promise<unknown>): PageLoad {
  const connection = useConnectionStore();
  const { t } = useI18n();
  const error = ref<string | null>(null);
  const failedOnCapture = ref(false);

  async function load(): Promise<void> {
    try {
      await read();
      error.value = null;
      failedOnCapture.value = false;
    } catch (err) {
      failedOnCapture.value = captureAway(err);
      error.value = describeError(err, { reading: true });
      connection.report(err);
    }
  }

  const waiting = computed(() => (failedOnCapture.value && connection.restarting ? t('restart.waiting') : null));
  useRecovery(load, () => error.value !== null);
  return { error, waiting, load };
}
