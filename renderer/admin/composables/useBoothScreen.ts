import { computed, onMounted, ref, watch, type Ref } from 'vue';
import { kiosk } from '../../shared/kiosk.js';
import { useIdleLock } from './useIdleLock.js';

/** The keypad left alone this long goes back to the capture app: a guest's stray long press. */
export const KEYPAD_IDLE_SECONDS = 60;

/**
 * In the booth's kiosk the console shares the screen with the capture app (see the README):
 * when the console locks, or its keypad is left alone, the screen goes back to the capture app.
 * Outside the kiosk, or with the simulator (no capture screen), nothing happens.
 */
export function useBoothScreen(unlocked: Ref<boolean>, keypadShown: Ref<boolean>): { available: Ref<boolean>; handBack: () => void } {
  const available = ref(false);
  const handBack = (): void => {
    if (available.value) void kiosk()?.showBoothScreen();
  };
  onMounted(async () => {
    const info = await kiosk()?.getInfo();
    available.value = info?.boothScreen === true;
  });
  watch(unlocked, (now, before) => {
    if (before && !now) handBack();
  });
  useIdleLock(
    computed(() => KEYPAD_IDLE_SECONDS),
    computed(() => available.value && keypadShown.value),
    handBack,
  );
  return { available, handBack };
}
