import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { GuestPrintJob, GuestPrintSession, PrintPauseReason } from '../../../server/contract/print.contract.js';
import { ApiError } from '../../shared/http.js';
import { printService } from '../services/print.service.js';

export type PrintRefusal = 'disabled' | 'unavailable' | 'session' | 'quota' | null;
export type SendError =
  | { kind: 'quota'; remaining: number; limitedBy: 'session' | 'address' }
  | { kind: 'disabled' | 'unavailable' | 'session' | 'gone' | 'network' | 'other' };

/** This guest's print session: quota left, their jobs followed live, and why the printer waits. */
export const usePrintStore = defineStore('guestPrint', () => {
  const session = ref<GuestPrintSession['print'] | null>(null);
  const jobs = ref<Record<number, GuestPrintJob>>({});
  const paused = ref<PrintPauseReason>(null);
  const sending = ref(false);
  /**
   * Jobs the stream told of before this guest's own request answered (the worker may start a job
   * before its POST's answer arrives): the newest word on each, the last few only.
   */
  const early = new Map<number, GuestPrintJob>();
  const EARLY_KEPT = 50;

  const refusal = computed<PrintRefusal>(() => {
    if (!session.value) return null;
    if (!session.value.enabled) return 'disabled';
    // No printer can be chosen at the booth: a print would never come out.
    if (paused.value === 'no_printer') return 'unavailable';
    // This browser keeps no gallery cookie (blocked, or too many from this phone): a print would be refused.
    if (!session.value.has_session) return 'session';
    return session.value.remaining <= 0 ? 'quota' : null;
  });
  /** The most a guest may ask for now: the settings' bound within what is left. */
  const maxNow = computed(() => (session.value ? Math.max(1, Math.min(session.value.max_copies, session.value.remaining)) : 1));

  /** Pauses the stream told: one told after a reading began wins over that reading's (an older state). */
  let pauseSaid = 0;

  async function load(): Promise<void> {
    const seen = pauseSaid;
    try {
      const s = await printService.session();
      session.value = s.print;
      if (pauseSaid === seen) paused.value = s.print.paused;
    } catch {
      /* the gallery shows its own connection error; the print button waits for the next try */
    }
  }

  async function send(photoId: string, copies: number): Promise<{ job: GuestPrintJob } | { error: SendError }> {
    sending.value = true;
    try {
      const result = await printService.print(photoId, copies);
      jobs.value[result.job.id] = early.get(result.job.id) ?? result.job;
      if (session.value && result.remaining !== null) {
        session.value.remaining = result.remaining;
        session.value.used = session.value.quota - result.remaining;
        // Which limit now holds (this session's or the phone's) is the server's to say.
        if (result.remaining === 0) void load();
      }
      return { job: jobs.value[result.job.id] ?? result.job };
    } catch (err) {
      // Whatever was refused, the session as the server now sees it is what the modal shows.
      await load();
      if (!(err instanceof ApiError)) return { error: { kind: 'other' } };
      if (err.status === 0) return { error: { kind: 'network' } };
      if (err.code === 'quota_exceeded') {
        return { error: { kind: 'quota', remaining: session.value?.remaining ?? 0, limitedBy: session.value?.limited_by ?? 'session' } };
      }
      if (err.code === 'print_disabled') return { error: { kind: 'disabled' } };
      if (err.code === 'print_unavailable') return { error: { kind: 'unavailable' } };
      if (err.code === 'session_required') return { error: { kind: 'session' } };
      if (err.status === 404) return { error: { kind: 'gone' } };
      return { error: { kind: 'other' } };
    } finally {
      sending.value = false;
      early.clear();
    }
  }

  /** From the gallery's live stream: only this guest's own jobs are kept. */
  function jobChanged(job: GuestPrintJob): void {
    if (sending.value) {
      if (early.size >= EARLY_KEPT) early.clear();
      early.set(job.id, job);
    }
    if (jobs.value[job.id]) jobs.value[job.id] = job;
    // Another job moved on: this guest's waiting jobs moved up the queue.
    else if (job.state !== 'queued') void refreshWaiting();
    // A cancelled job gives copies back: read the session again.
    if (jobs.value[job.id] && job.state === 'cancelled') void load();
  }

  async function refreshWaiting(): Promise<void> {
    for (const mine of Object.values(jobs.value).filter((j) => j.state === 'queued')) {
      try {
        jobs.value[mine.id] = (await printService.job(mine.id)).job;
      } catch {
        /* the next event tries again */
      }
    }
  }

  function statusChanged(reason: PrintPauseReason): void {
    pauseSaid++;
    paused.value = reason;
  }

  return { session, jobs, paused, sending, refusal, maxNow, load, send, jobChanged, statusChanged };
});
