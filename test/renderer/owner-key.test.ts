// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useOwnerKeyStore } from '../../renderer/admin/stores/owner-key.store.js';
import { useSessionStore } from '../../renderer/admin/stores/session.store.js';
import { api, ApiError } from '../../renderer/shared/http.js';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ownerKeyRequired = (): Response => json(403, { error: { code: 'owner_key_required', message: 'x' } });
const session = (level: 'event' | 'owner') => ({
  authenticated: true,
  pin_set: true,
  first_run_allowed: false,
  idle_lock_seconds: 300,
  level,
  event_pin_set: true,
  owner_idle_seconds: 120,
  owner_max_seconds: 900,
});

/** A server stand-in: the owner-only route refuses until the owner PIN was given, once. */
function fakeServer(ownerPin: string) {
  let owner = false;
  const calls: string[] = [];
  const fetchMock = vi.fn(async (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push(`${method} ${path}`);
    if (path === '/api/admin/session/elevate') {
      const { pin } = JSON.parse(init.body as string) as { pin: string };
      if (pin !== ownerPin) return json(403, { error: { code: 'wrong_pin', message: 'x', details: { retry_after_seconds: 1 } } });
      owner = true;
      return new Response(null, { status: 204 });
    }
    if (path === '/api/admin/session') return json(200, session(owner ? 'owner' : 'event'));
    if (path === '/api/admin/system/reboot') return owner ? json(202, { ok: true }) : ownerKeyRequired();
    if (path === '/api/admin/backup') return owner ? json(200, {}) : ownerKeyRequired();
    return json(404, { error: { code: 'not_found', message: 'x' } });
  });
  return { fetchMock, calls };
}

describe('the owner key asked in place', () => {
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => vi.unstubAllGlobals());

  it('asks once for a refused change, sends it again once the key is held, and the session knows it', async () => {
    const server = fakeServer('246810');
    vi.stubGlobal('fetch', server.fetchMock);
    const owner = useOwnerKeyStore();
    await useSessionStore().refresh();
    expect(useSessionStore().level).toBe('event');

    const reboot = api.post<{ ok: boolean }>('/api/admin/system/reboot');
    await vi.waitFor(() => expect(owner.open).toBe(true));
    await owner.submit('1357');
    expect(owner.open).toBe(true);
    expect(owner.error).toBe('Code PIN incorrect');
    await owner.submit('246810');
    await expect(reboot).resolves.toEqual({ ok: true });
    expect(owner.open).toBe(false);
    expect(useSessionStore().isOwner).toBe(true);
    expect(server.calls.filter((c) => c === 'POST /api/admin/system/reboot')).toHaveLength(2);
  });

  it('gives the refusal back when the owner dismisses the keypad, and never retries a read', async () => {
    vi.stubGlobal('fetch', fakeServer('246810').fetchMock);
    const owner = useOwnerKeyStore();
    await useSessionStore().refresh();
    const reboot = api.post('/api/admin/system/reboot');
    await vi.waitFor(() => expect(owner.open).toBe(true));
    owner.cancel();
    await expect(reboot).rejects.toMatchObject({ status: 403, code: 'owner_key_required' });
    // A read refused for want of the key is answered as it is: the page asks before it opens.
    await expect(api.get('/api/admin/backup')).rejects.toBeInstanceOf(ApiError);
    expect(owner.open).toBe(false);
  });
});
