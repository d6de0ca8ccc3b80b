import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { BoothAction } from '../../../server/contract/actions.contract.js';
import type { CaptureJobFailure, CaptureJobsStatus, FailingAction } from '../../../server/contract/capture.contract.js';
import { systemService } from '../services/system.service.js';
import { useAdminStreamStore } from './stream.store.js';

/**
 * The guests' jobs the capture app failed, live from the console's stream (which sends them at
 * each connection): the banner shows the newest one the operator has not marked seen, the
 * Actions page marks the actions whose last runs all failed.
 */
export const useCaptureJobsStore = defineStore('captureJobs', () => {
  const status = ref<CaptureJobsStatus | null>(null);
  let users = 0;
  let unsubscribe: (() => void) | undefined;

  /**
   * The newest failure not seen yet, and how many others are not seen either beyond those its
   * sentence already counts: "failed 2 times in a row" names the run before it, which is no
   * other failure.
   */
  const unseen = computed((): { latest: CaptureJobFailure; others: number } | null => {
    const s = status.value;
    const fresh = s ? s.failures.filter((f) => f.id > s.seen_id) : [];
    const [latest] = fresh;
    if (!latest) return null;
    // A run's failures are the newest of their action (newest first): a good run ended any older one.
    const sameAction = (f: CaptureJobFailure): boolean =>
      f.trigger.kind === latest.trigger.kind && f.trigger.index === latest.trigger.index && f.name === latest.name;
    const inRun = fresh.filter(sameAction).slice(0, latest.in_a_row).length;
    return { latest, others: fresh.length - inRun };
  });

  /** The mark of an action card: its capture-app trigger and (when known) its name match. */
  function failingOf(action: BoothAction): FailingAction | null {
    const { kind, index } = action.button.trigger;
    return (
      status.value?.failing.find(
        (f) => f.trigger.kind === kind && f.trigger.index === index && (f.name === null || f.name === action.general.name),
      ) ?? null
    );
  }

  function use(): () => void {
    users++;
    if (users === 1) {
      unsubscribe = useAdminStreamStore().subscribe({ captureJobs: (s) => (status.value = s) });
    }
    return () => {
      users = Math.max(0, users - 1);
      if (users === 0) {
        unsubscribe?.();
        unsubscribe = undefined;
      }
    };
  }

  async function markSeen(): Promise<void> {
    const latest = unseen.value?.latest;
    if (latest) status.value = await systemService.markJobsSeen(latest.id);
  }

  return { status, unseen, failingOf, use, markSeen };
});
