import { onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
const WARNING_SECONDS = 30;

/**
 * Calls `onIdle` once nobody has touched the screen for `seconds`. For the last 30 seconds,
 * `warning` counts down so the console can say it is about to lock (and an operator in the
 * middle of an edit can keep it open with a touch). Any touch, key or scroll starts again.
 */
export function useIdleLock(seconds: Ref<number>, active: Ref<boolean>, onIdle: () => void): { warning: Ref<number | null> } {
  const warning = ref<number | null>(null);
  let lockTimer: ReturnType<typeof setTimeout> | undefined;
  let warnTimer: ReturnType<typeof setTimeout> | undefined;
  let tick: ReturnType<typeof setInterval> | undefined;

  const clear = (): void => {
    clearTimeout(lockTimer);
    clearTimeout(warnTimer);
    clearInterval(tick);
    warning.value = null;
  };

  const arm = (): void => {
    clear();
    if (!active.value || seconds.value <= 0) return;
    const total = seconds.value;
    const lead = Math.min(WARNING_SECONDS, total);
    warnTimer = setTimeout(
      () => {
        warning.value = lead;
        tick = setInterval(() => {
          warning.value = Math.max(0, (warning.value ?? 1) - 1);
        }, 1000);
      },
      (total - lead) * 1000,
    );
    lockTimer = setTimeout(() => {
      clear();
      onIdle();
    }, total * 1000);
  };

  onMounted(() => {
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, arm, { passive: true, capture: true }));
    arm();
  });
  onBeforeUnmount(() => {
    clear();
    ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, arm, { capture: true }));
  });
  watch([seconds, active], arm);
  return { warning };
}
