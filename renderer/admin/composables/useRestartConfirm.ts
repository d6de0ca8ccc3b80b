import { useI18n } from '../../shared/i18n/index.js';
import { useDialogStore, type ConfirmRequest } from '../stores/dialog.store.js';
import { useEventsStore } from '../stores/events.store.js';
import { useRestartStore } from '../stores/restart.store.js';

/** Guests count as present when the current event got a photo this recently. */
export const GUESTS_PRESENT_MS = 10 * 60_000;

/**
 * Before a change that restarts the capture app: while an event is on and photos were taken in
 * the last ten minutes, the operator confirms, knowing how long guests will wait. One question,
 * never two: a button whose only job is a restart asks `request` when no guests are about
 * (`instead`); a change that asks its own question anyway (delete this action? restore this
 * preset?) asks it once, with the restart's consequence added to it (`with`).
 */
export function useRestartConfirm(): (request?: ConfirmRequest, mode?: 'instead' | 'with') => Promise<boolean> {
  const events = useEventsStore();
  const restart = useRestartStore();
  const dialog = useDialogStore();
  const { t } = useI18n();

  return async (request?: ConfirmRequest, mode: 'instead' | 'with' = 'instead') => {
    const quiet = async (): Promise<boolean> => (request ? dialog.confirm(request) : true);
    try {
      await events.load();
    } catch {
      return quiet(); // Without the events, nothing says guests are waiting: do not block the save.
    }
    const current = events.events.find((e) => e.current);
    const last = current?.last_photo_at ? Date.parse(current.last_photo_at) : NaN;
    if (!current || !(Date.now() - last < GUESTS_PRESENT_MS)) return quiet();
    const seconds = restart.status?.typical_seconds ?? null;
    const consequence =
      seconds === null
        ? t('restartConfirm.bodyUnknown', { event: current.name })
        : t('restartConfirm.body', { event: current.name, seconds });
    if (request && mode === 'with') return dialog.confirm({ ...request, points: [...(request.points ?? []), consequence] });
    return dialog.confirm({ title: t('restartConfirm.title'), body: consequence, confirmLabel: t('restartConfirm.go') });
  };
}
