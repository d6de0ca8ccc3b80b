// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminKey, SessionStatus } from '../../server/contract/session.contract.js';
import { sessionService } from '../../renderer/admin/services/session.service.js';
import { useSessionStore } from '../../renderer/admin/stores/session.store.js';
import { api } from '../../renderer/shared/http.js';

vi.mock('../../renderer/admin/services/session.service.js', () => ({
  sessionService: { status: vi.fn(), signOut: vi.fn(), signIn: vi.fn() },
}));

const status = (authenticated: boolean, level: AdminKey | null = authenticated ? 'owner' : null): SessionStatus => ({
  authenticated,
  pin_set: true,
  first_run_allowed: false,
  idle_lock_seconds: 300,
  level,
  event_pin_set: true,
  owner_idle_seconds: 120,
  owner_max_seconds: 900,
});

/** A read whose answer the test hands back when it chooses, as a slow server would. */
function slowRead(): (answer: SessionStatus) => void {
  let answer: ((s: SessionStatus) => void) | undefined;
  vi.mocked(sessionService.status).mockImplementationOnce(() => new Promise<SessionStatus>((resolve) => (answer = resolve)));
  return (s) => answer?.(s);
}

describe('the session as the console shows it', () => {
  beforeEach(async () => {
    setActivePinia(createPinia());
    vi.mocked(sessionService.status).mockReset().mockResolvedValue(status(true));
    vi.mocked(sessionService.signOut).mockReset().mockResolvedValue(undefined);
    await useSessionStore().refresh();
    expect(useSessionStore().phase).toBe('unlocked');
  });

  it('stays locked when a read asked before the lock answers after it', async () => {
    const session = useSessionStore();
    // The owner key's check went out just before the idle lock; the server answered it while the
    // session still existed, and the answer arrives once the console is locked.
    const answer = slowRead();
    const read = session.refresh();
    await session.lock();
    expect(session.phase).toBe('locked');
    answer(status(true));
    await read;
    expect(session.phase).toBe('locked');
  });

  it('stays locked when a read asked while the session was being forgotten answers after it', async () => {
    const session = useSessionStore();
    let forgotten: (() => void) | undefined;
    vi.mocked(sessionService.signOut).mockImplementationOnce(() => new Promise<void>((resolve) => (forgotten = resolve)));
    const locking = session.lock();
    const answer = slowRead();
    const read = session.refresh();
    forgotten?.();
    await locking;
    answer(status(true));
    await read;
    expect(session.phase).toBe('locked');
  });

  it('keeps the newer of two reads that answer out of order', async () => {
    const session = useSessionStore();
    const older = slowRead();
    const first = session.refresh();
    vi.mocked(sessionService.status).mockResolvedValueOnce(status(true, 'event'));
    await session.refresh();
    expect(session.level).toBe('event');
    older(status(true, 'owner'));
    await first;
    expect(session.level).toBe('event');
  });

  it('a refusal for want of a session locks the console over a read that went out before it', async () => {
    const session = useSessionStore();
    const answer = slowRead();
    const read = session.refresh();
    // The server has forgotten the session: asked again after the refusal, it says so.
    vi.mocked(sessionService.status).mockResolvedValue(status(false));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'x' } }), { status: 401 })),
    );
    await expect(api.get('/api/admin/events')).rejects.toMatchObject({ status: 401 });
    vi.unstubAllGlobals();
    expect(session.phase).toBe('locked');
    answer(status(true));
    await read;
    expect(session.phase).toBe('locked');
  });

  it('a new sign-in is shown, whatever an older read says afterwards', async () => {
    const session = useSessionStore();
    await session.lock();
    const older = slowRead();
    const read = session.refresh();
    vi.mocked(sessionService.signIn).mockResolvedValueOnce(undefined);
    vi.mocked(sessionService.status).mockResolvedValueOnce(status(true, 'event'));
    await session.signIn('1357');
    expect(session.phase).toBe('unlocked');
    older(status(false));
    await read;
    expect(session.phase).toBe('unlocked');
  });

  it('a refusal of a request sent before a fresh sign-in, answered after it, leaves the console open', async () => {
    const session = useSessionStore();
    await session.lock();
    let refuse: (() => void) | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            refuse = () => resolve(new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'x' } }), { status: 401 }));
          }),
      ),
    );
    const old = api.get('/api/admin/events').catch(() => undefined);
    vi.unstubAllGlobals();
    vi.mocked(sessionService.signIn).mockResolvedValueOnce(undefined);
    vi.mocked(sessionService.status).mockResolvedValue(status(true, 'event'));
    await session.signIn('1357');
    refuse?.();
    await old;
    await vi.waitFor(() => expect(session.phase).toBe('unlocked'));
  });
});
