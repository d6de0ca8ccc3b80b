// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GuestPrintJob } from '../../server/contract/print.contract.js';
import { usePrintStore } from '../../renderer/gallery/stores/print.store.js';
import { printService } from '../../renderer/gallery/services/print.service.js';
import { ApiError } from '../../renderer/shared/http.js';
import { guestSession } from '../support/guest-print-session.js';

vi.mock('../../renderer/gallery/services/print.service.js', () => ({
  printService: { session: vi.fn(), print: vi.fn(), job: vi.fn() },
}));

const session = guestSession;
const job = (id: number, state: GuestPrintJob['state']): GuestPrintJob => ({
  id,
  photo_id: 'p',
  copies: 1,
  state,
  position: 0,
  error: null,
});

describe("a guest's print session", () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(printService.session).mockReset();
    vi.mocked(printService.print).mockReset();
  });

  it('bounds the copies by the settings and by what is left, and says why it cannot print', async () => {
    const store = usePrintStore();
    vi.mocked(printService.session).mockResolvedValueOnce(session({ remaining: 2, used: 3 }));
    await store.load();
    expect(store.maxNow).toBe(2);
    expect(store.refusal).toBeNull();
    vi.mocked(printService.session).mockResolvedValueOnce(session({ remaining: 0, used: 5 }));
    await store.load();
    expect(store.refusal).toBe('quota');
    vi.mocked(printService.session).mockResolvedValueOnce(session({ enabled: false }));
    await store.load();
    expect(store.refusal).toBe('disabled');
  });

  it('follows only its own jobs live, and reads the session again when one is cancelled', async () => {
    const store = usePrintStore();
    vi.mocked(printService.session).mockResolvedValue(session({}));
    await store.load();
    vi.mocked(printService.print).mockResolvedValueOnce({ job: job(7, 'queued'), remaining: 4 });
    expect(await store.send('p', 1)).toEqual({ job: job(7, 'queued') });
    expect(store.session?.remaining).toBe(4);
    // Another guest's job moves on: this one moved up, and is read again.
    vi.mocked(printService.job).mockResolvedValueOnce({ job: { ...job(7, 'queued'), position: 0 } });
    store.jobs[7] = { ...job(7, 'queued'), position: 1 };
    store.jobChanged(job(8, 'printing'));
    expect(store.jobs[8]).toBeUndefined();
    await vi.waitFor(() => expect(store.jobs[7]?.position).toBe(0));
    expect(printService.job).toHaveBeenCalledWith(7);
    store.jobChanged(job(7, 'printing'));
    expect(store.jobs[7]?.state).toBe('printing');
    const calls = vi.mocked(printService.session).mock.calls.length;
    store.jobChanged(job(7, 'cancelled'));
    expect(vi.mocked(printService.session).mock.calls.length).toBe(calls + 1);
  });

  it('turns refusals into reasons a guest can read', async () => {
    const store = usePrintStore();
    vi.mocked(printService.session).mockResolvedValue(session({ remaining: 1 }));
    await store.load();
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(429, 'quota_exceeded', 'x'));
    expect(await store.send('p', 2)).toEqual({ error: { kind: 'quota', remaining: 1, limitedBy: 'session' } });
    // The phone's allowance, not the session's quota: the refusal says which.
    vi.mocked(printService.session).mockResolvedValue(session({ remaining: 1, limited_by: 'address' }));
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(429, 'quota_exceeded', 'x'));
    expect(await store.send('p', 2)).toEqual({ error: { kind: 'quota', remaining: 1, limitedBy: 'address' } });
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(403, 'print_disabled', 'x'));
    expect(await store.send('p', 1)).toEqual({ error: { kind: 'disabled' } });
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(404, 'not_found', 'x'));
    expect(await store.send('p', 1)).toEqual({ error: { kind: 'gone' } });
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(0, 'network', 'network'));
    expect(await store.send('p', 1)).toEqual({ error: { kind: 'network' } });
  });
});

describe('a guest facing a printer that cannot print', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(printService.session).mockReset();
  });

  it('is refused before sending when no printer is ready, and told when it comes back', async () => {
    vi.mocked(printService.session).mockResolvedValue(session({ paused: 'no_printer' }));
    const store = usePrintStore();
    await store.load();
    expect(store.refusal).toBe('unavailable');
    store.statusChanged(null);
    expect(store.refusal).toBeNull();
    store.statusChanged('stopped');
    // A paused printer still takes prints: they wait for it.
    expect(store.refusal).toBeNull();
  });

  it('says why a print was refused without a session or without a printer', async () => {
    vi.mocked(printService.session).mockResolvedValue(session({}));
    const store = usePrintStore();
    await store.load();
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(403, 'session_required', 'x'));
    expect(await store.send('p', 1)).toEqual({ error: { kind: 'session' } });
    vi.mocked(printService.print).mockRejectedValueOnce(new ApiError(503, 'print_unavailable', 'x'));
    expect(await store.send('p', 1)).toEqual({ error: { kind: 'unavailable' } });
  });
});

describe('a guest whose job starts before the answer to their request', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(printService.session).mockReset();
    vi.mocked(printService.print).mockReset();
  });

  it('keeps the newest state the stream gave, not the answer’s older one', async () => {
    vi.mocked(printService.session).mockResolvedValue(session({}));
    const store = usePrintStore();
    await store.load();
    let answer: (value: { job: GuestPrintJob; remaining: number }) => void = () => undefined;
    vi.mocked(printService.print).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const sent = store.send('p', 1);
    // The worker picked it up and said so on the stream while the answer was on its way.
    store.jobChanged(job(7, 'printing'));
    answer({ job: job(7, 'queued'), remaining: 4 });
    expect(await sent).toEqual({ job: job(7, 'printing') });
    expect(store.jobs[7]?.state).toBe('printing');
  });
});
