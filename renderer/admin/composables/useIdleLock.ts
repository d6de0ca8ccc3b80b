import { onBeforeUnmount, onMounted, watch, type Ref } from 'vue';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Calls `onIdle` once nobody has touched the screen for `seconds`. Any touch, key or scroll
 * starts the wait again.
 */
export function useIdleLock(seconds: Ref<number>, active: Ref<boolean>, onIdle: () => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;

  const arm = (): void => {
    clearTimeout(timer);
    if (active.value && seconds.value > 0) timer = setTimeout(onIdle, seconds.value * 1000);
  };

  onMounted(() => {
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, arm, { passive: true, capture: true }));
    arm();
  });
  onBeforeUnmount(() => {
    clearTimeout(timer);
    ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, arm, { capture: true }));
  });
  watch([seconds, active], arm);
}
