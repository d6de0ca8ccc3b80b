import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import { ApiError, onOwnerKeyRequired } from '../../shared/http.js';
import { useI18n } from '../../shared/i18n/index.js';
import { describeError } from '../composables/useApiError.js';
import { sessionService } from '../services/session.service.js';
import { useSessionStore } from './session.store.js';

/**
 * Asks for the owner's PIN in place, over the current page: a change refused for want of the
 * owner's key, an owner-only page, a button marked with the lock. One question at a time, however
 * many requests were refused together; it resolves true once the session holds the owner's key.
 */
export const useOwnerKeyStore = defineStore('ownerKey', () => {
  const session = useSessionStore();
  const { t } = useI18n();
  const open = ref(false);
  const busy = ref(false);
  const error = ref<string | null>(null);
  const waitSeconds = ref(0);
  let answer: Promise<boolean> | undefined;
  let settle: ((granted: boolean) => void) | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;

  function close(granted: boolean): void {
    open.value = false;
    error.value = null;
    settle?.(granted);
    settle = undefined;
    answer = undefined;
  }

  /** Shows the owner's keypad; resolves when the owner's key is held (true) or the question is dismissed. */
  function ask(): Promise<boolean> {
    answer ??= new Promise<boolean>((resolve) => {
      settle = resolve;
      open.value = true;
    });
    return answer;
  }

  /** True at once when the session holds the owner's key; else asks for it. */
  async function ensure(): Promise<boolean> {
    return session.isOwner || ask();
  }

  /** The server says how long the booth waits after a wrong PIN; the keypad counts it down. */
  function waitFor(seconds: number): void {
    const until = performance.now() + seconds * 1000;
    clearInterval(ticker);
    const tick = (): void => {
      waitSeconds.value = Math.max(0, Math.ceil((until - performance.now()) / 1000));
      if (waitSeconds.value === 0) clearInterval(ticker);
    };
    tick();
    ticker = setInterval(tick, 250);
  }

  async function submit(pin: string): Promise<void> {
    busy.value = true;
    error.value = null;
    try {
      await sessionService.elevate(pin);
      await session.refresh();
      close(true);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'wrong_pin' || err.status === 429)) {
        error.value =
          err.code === 'owner_pin_resting'
            ? t('ownerKey.resting', { minutes: Math.max(1, Math.ceil((err.retryAfterSeconds ?? 60) / 60)) })
            : err.status === 429
              ? t('login.rateLimited')
              : t('login.wrong');
        if (err.retryAfterSeconds) waitFor(err.retryAfterSeconds);
      } else error.value = describeError(err);
    } finally {
      busy.value = false;
    }
  }

  // A console that locks itself (or is signed out) drops the question with it.
  watch(
    () => session.phase,
    (phase) => {
      if (phase !== 'unlocked' && open.value) close(false);
    },
  );

  onOwnerKeyRequired(() => {
    session.noteEventKey();
    return ask();
  });

  return { open, busy, error, waitSeconds, ask, ensure, submit, cancel: () => close(false) };
});
