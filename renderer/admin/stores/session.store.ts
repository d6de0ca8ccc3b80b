import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { AdminKey, SessionStatus } from '../../../server/contract/session.contract.js';
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
  /** The key the session holds: the owner's lapses on the server when unused, so it is read again while held. */
  const level = computed<AdminKey | null>(() => (status.value?.authenticated ? (status.value.level ?? 'event') : null));
  const isOwner = computed(() => level.value === 'owner');

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
    if (status.value) status.value = { ...status.value, authenticated: false, level: null };
  });

  /** What the server just said: the session holds only the event key (a refusal, a drop). */
  function noteEventKey(): void {
    if (status.value?.authenticated) status.value = { ...status.value, level: 'event' };
  }

  /** The owner gives the console back to the renter before the owner's key lapses by itself. */
  async function dropOwner(): Promise<void> {
    await sessionService.dropOwner();
    await refresh();
  }

  // While the owner's key is held, the server is asked every few seconds whether it still is:
  // the locks come back on screen when it lapses, not only at the next refused change.
  let ownerTimer: ReturnType<typeof setInterval> | undefined;
  watch(isOwner, (owner) => {
    clearInterval(ownerTimer);
    ownerTimer = owner ? setInterval(() => void refresh().catch(() => undefined), 15_000) : undefined;
  });

  return { status, phase, idleLockSeconds, level, isOwner, refresh, signIn, setInitialPin, lock, noteEventKey, dropOwner };
});
