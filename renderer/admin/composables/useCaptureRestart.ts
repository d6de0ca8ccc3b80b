import { ref, type Ref } from 'vue';
import { useI18n } from '../../shared/i18n/index.js';
import { useNoticeStore } from '../stores/notice.store.js';
import { useRestartStore } from '../stores/restart.store.js';
import { describeError } from './useApiError.js';
import { useRestartConfirm } from './useRestartConfirm.js';

/**
 * The one "restart the capture app" button, wherever it sits (home, maintenance): the same
 * question, the same request (the announced restart chain, whose banner follows it), the same words.
 */
export function useCaptureRestart(): { restart: () => Promise<void>; busy: Ref<boolean> } {
  const { t } = useI18n();
  const confirmDuringEvent = useRestartConfirm();
  const busy = ref(false);

  async function restart(): Promise<void> {
    // During an event with guests about, the question every restarting change asks; else a plain one.
    const ok = await confirmDuringEvent({
      title: t('dash.confirm.restartCapture.title'),
      body: t('dash.confirm.restartCapture.body'),
      confirmLabel: t('dash.actions.restartCapture'),
    });
    if (!ok) return;
    busy.value = true;
    try {
      await useRestartStore().retry();
    } catch (err) {
      useNoticeStore().show('error', describeError(err));
    } finally {
      busy.value = false;
    }
  }

  return { restart, busy };
}
