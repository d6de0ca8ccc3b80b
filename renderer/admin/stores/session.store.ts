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

  // Reads of the status go out in the background (the owner's key checked every 15 s, several at
  // once under a fake clock) and their answers may come back late. Each change of the status takes
  // a number when it is asked: an answer to a read asked before a newer change (a lock, a refusal,
  // a newer read) is dropped, or a read asked just before the idle lock would open the console again.
  let asked = 0;
  let shown = 0;
  const take = (): number => ++asked;
  const isStale = (ticket: number): boolean => ticket < shown;
  function settle(ticket: number, next: SessionStatus | null): void {
    if (isStale(ticket) || !next) return;
    shown = ticket;
    status.value = next;
  }

  async function refresh(): Promise<void> {
    const ticket = take();
    try {
      const answer = await sessionService.status();
      if (isStale(ticket)) return;
      settle(ticket, answer);
      offline.value = false;
    } catch (err) {
      // An older read's failure says nothing about the connection a newer change already proved.
      if (isStale(ticket)) return;
      if (err instanceof ApiError && err.status === 0) offline.value = true;
      else throw err;
    }
  }

  const withoutSession = (): SessionStatus | null => (status.value ? { ...status.value, authenticated: false, level: null } : null);

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
      // Numbered once the server has forgotten the session: every read asked until then is older.
      settle(take(), withoutSession());
    }
  }

  // A refusal locks at once, then the server is asked again: a refusal of a request sent before a
  // fresh sign-in (answered after it) must not keep a valid session behind the keypad.
  onUnauthorized(() => {
    settle(take(), withoutSession());
    void refresh().catch(() => undefined);
  });

  /** What the server just said: the session holds only the event key (a refusal, a drop). */
  function noteEventKey(): void {
    if (status.value?.authenticated) settle(take(), { ...status.value, level: 'event' });
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
