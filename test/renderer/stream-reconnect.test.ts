// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { systemService, type AdminStreamHandlers } from '../../renderer/admin/services/system.service.js';
import { useConnectionStore } from '../../renderer/admin/stores/connection.store.js';
import { useAdminStreamStore } from '../../renderer/admin/stores/stream.store.js';

vi.mock('../../renderer/admin/services/status.service.js', () => ({ statusService: { get: vi.fn(() => new Promise(() => undefined)) } }));
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

  it('makes the pages read again only when the stream comes back after a cut, not on its first connection', async () => {
    const stream = useAdminStreamStore();
    const reread = vi.fn();
    stream.onReconnect(reread);
    opened[0]!.handlers.open?.();
    expect(reread).not.toHaveBeenCalled();
    // Boothdeck stops: the browser's stream fails, then connects again by itself.
    opened[0]!.handlers.error?.();
    opened[0]!.handlers.open?.();
    expect(reread).toHaveBeenCalledOnce();
    // The capture app coming back reopens the stream, but nothing was missed: no second read.
    useConnectionStore().restartFinished();
    await nextTick();
    opened[1]!.handlers.open?.();
    expect(reread).toHaveBeenCalledOnce();
    // A stream the browser gave up on, reopened after the recovery: read again.
    opened[1]!.handlers.error?.();
    useConnectionStore().restartFinished();
    await nextTick();
    opened[2]!.handlers.open?.();
    expect(reread).toHaveBeenCalledTimes(2);
  });

  it('stops reading again, and closes the stream, once the page is gone', () => {
    const stream = useAdminStreamStore();
    const reread = vi.fn();
    const stop = stream.onReconnect(reread);
    stop();
    expect(opened[0]!.closed).toBe(true);
    opened[0]!.handlers.error?.();
    opened[0]!.handlers.open?.();
    expect(reread).not.toHaveBeenCalled();
  });
});
