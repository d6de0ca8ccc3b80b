import { onBeforeUnmount, onMounted } from 'vue';
import { t } from '../../shared/i18n/index.js';
import { useDialogStore } from '../stores/dialog.store.js';

/**
 * Asks before leaving a page with unsaved changes: on a route change (the console's own
 * navigation) and on a reload or close of the window.
 */
export function useUnsavedGuard(isDirty: () => boolean): { beforeLeave: () => Promise<boolean> } {
  const dialog = useDialogStore();
  const onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (isDirty()) event.preventDefault();
  };
  onMounted(() => window.addEventListener('beforeunload', onBeforeUnload));
  onBeforeUnmount(() => window.removeEventListener('beforeunload', onBeforeUnload));

  return {
    beforeLeave: async () => {
      if (!isDirty()) return true;
      return dialog.confirm({
        title: t('actions.confirmLeave.title'),
        body: t('actions.confirmLeave.body'),
        confirmLabel: t('actions.confirmLeave.leave'),
        danger: true,
      });
    },
  };
}
