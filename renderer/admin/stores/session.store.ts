import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { SessionStatus } from '../../../server/contract/session.contract.js';
import { ApiError, onUnauthorized } from '../../shared/http.js';
import { sessionService } from '../services/session.service.js';

export type SessionPhase = 'loading' | 'first-run' | 'no-pin' | 'locked' | 'unlocked' | 'offline';

export const useSessionStore = defineStore('session', () => {
  const status = ref<SessionStatus | null>(null);
  const offline = ref(false);

  const phase = computed<SessionPhase>(() => {
    if (offline.value) return 'offline';
    const s = status.value;
    if (!s) return 'loading';
    if (!s.pin_set) return s.first_run_allowed ? 'first-run' : 'no-pin';
    return s.authenticated ? 'unlocked' : 'locked';
  });
  const idleLockSeconds = computed(() => status.value?.idle_lock_seconds ?? 300);

  async function refresh(): Promise<void> {
    try {
      status.value = await sessionService.status();
      offline.value = false;
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) offline.value = true;
      else throw err;
    }
  }

  async function signIn(pin: string): Promise<void> {
    await sessionService.signIn(pin);
    await refresh();
  }

  async function setInitialPin(pin: string): Promise<void> {
    await sessionService.setInitialPin(pin);
    await refresh();
  }

  /** Locks the console: the server forgets the session, the screen returns to the keypad. */
  async function lock(): Promise<void> {
    try {
      await sessionService.signOut();
    } finally {
      if (status.value) status.value = { ...status.value, authenticated: false };
    }
  }

  onUnauthorized(() => {
    if (status.value) status.value = { ...status.value, authenticated: false };
  });

  return { status, phase, idleLockSeconds, refresh, signIn, setInitialPin, lock };
});
