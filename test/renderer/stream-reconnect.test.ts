// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { systemService, type AdminStreamHandlers } from '../../renderer/admin/services/system.service.js';
import { useConnectionStore } from '../../renderer/admin/stores/connection.store.js';
import { useAdminStreamStore } from '../../renderer/admin/stores/stream.store.js';

vi.mock('../../renderer/admin/services/system.service.js', () => ({
  systemService: { openStream: vi.fn(), restartStatus: vi.fn(), requestRestart: vi.fn() },
}));

/** The handlers each opened stream was given, and whether it was closed since. */
const opened: { handlers: AdminStreamHandlers; closed: boolean }[] = [];

beforeEach(() => {
  setActivePinia(createPinia());
  opened.length = 0;
  vi.mocked(systemService.openStream).mockImplementation((handlers) => {
    const entry = { handlers, closed: false };
    opened.push(entry);
    return () => (entry.closed = true);
  });
});

describe('the console’s live stream after a cut', () => {
  it('tells every page when it (re)connects, so each reads its state again', () => {
    const stream = useAdminStreamStore();
    const print = vi.fn();
    const events = vi.fn();
    stream.subscribe({ open: print });
    stream.subscribe({ open: events });
    opened[0]!.handlers.open?.();
    expect(print).toHaveBeenCalledOnce();
    expect(events).toHaveBeenCalledOnce();
  });

  it('is opened anew when the connection comes back, and the pages hear it open', async () => {
    const stream = useAdminStreamStore();
    const reread = vi.fn();
    stream.subscribe({ open: reread });
    useConnectionStore().restartFinished();
    await nextTick();
    expect(opened).toHaveLength(2);
    expect(opened[0]!.closed).toBe(true);
    opened[1]!.handlers.open?.();
    expect(reread).toHaveBeenCalledOnce();
  });

  it('opens nothing after a recovery when no page listens', async () => {
    useAdminStreamStore();
    useConnectionStore().restartFinished();
    await nextTick();
    expect(opened).toHaveLength(0);
  });
});
