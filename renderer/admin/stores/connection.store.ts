import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { ApiError } from '../../shared/http.js';
import { statusService } from '../services/status.service.js';
import { useRestartStore } from './restart.store.js';

const CHECK_EVERY_MS = 10_000;
const CHECK_WHILE_DOWN_MS = 2_000;

/**
 * Watches both links the console depends on: the browser's to Boothdeck, and Boothdeck's to the
 * capture app. Pages that failed to read something bump nothing themselves: they reload when
 * `recovered` changes, which happens whenever a link comes back or a capture-app restart ends.
 */
export const useConnectionStore = defineStore('connection', () => {
  const boothdeck = ref<'online' | 'offline'>('online');
  const capture = ref<'up' | 'down' | 'unknown'>('unknown');
  const recovered = ref(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let users = 0;

  const restart = useRestartStore();
  const restarting = computed(() => restart.underWay);

  function schedule(): void {
    clearTimeout(timer);
    if (users === 0) return;
    const down = boothdeck.value === 'offline' || capture.value === 'down';
    timer = setTimeout(() => void check(), down ? CHECK_WHILE_DOWN_MS : CHECK_EVERY_MS);
  }

  async function check(): Promise<void> {
    const wasDown = boothdeck.value === 'offline' || capture.value === 'down';
    try {
      const status = await statusService.get();
      boothdeck.value = 'online';
      capture.value = status.capture.reachable ? 'up' : 'down';
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) boothdeck.value = 'offline';
    }
    const isDown = boothdeck.value === 'offline' || capture.value === 'down';
    if (wasDown && !isDown) recovered.value++;
    schedule();
  }

  /** A page's read failed: look again soon instead of waiting for the next round. */
  function report(err: unknown): void {
    if (err instanceof ApiError && err.status === 0) boothdeck.value = 'offline';
    else if (err instanceof ApiError && err.code === 'capture_app_unavailable') capture.value = 'down';
    schedule();
  }

  /** The Retry button: check now, and let every page with a failed read try again. */
  async function retry(): Promise<void> {
    await check();
    recovered.value++;
  }

  function start(): void {
    users++;
    if (users === 1) void check();
  }

  function stop(): void {
    users = Math.max(0, users - 1);
    if (users === 0) clearTimeout(timer);
  }

  function restartFinished(): void {
    capture.value = 'up';
    recovered.value++;
  }

  return { boothdeck, capture, restarting, recovered, check, report, retry, start, stop, restartFinished };
});
