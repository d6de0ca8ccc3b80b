// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BoothAction } from '../../server/contract/actions.contract.js';
import type { CaptureJobFailure, CaptureJobsStatus } from '../../server/contract/capture.contract.js';
import { systemService } from '../../renderer/admin/services/system.service.js';
import { useCaptureJobsStore } from '../../renderer/admin/stores/capture-jobs.store.js';

vi.mock('../../renderer/admin/services/system.service.js', () => ({
  systemService: { markJobsSeen: vi.fn(), openStream: vi.fn(() => () => undefined) },
}));

const failure = (id: number, index: number | null, name: string | null): CaptureJobFailure => ({
  id,
  at: '2026-11-28T13:48:45.000Z',
  trigger: { kind: 'video', index },
  name,
  title: 'Boomerang',
  in_a_row: id,
  reasons: [],
});

const action = (kind: BoothAction['general']['kind'], index: number, name: string): BoothAction =>
  ({ general: { kind, name, countdown: 2 }, button: { trigger: { kind, index } } }) as unknown as BoothAction;

describe('the failed jobs the console tells', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the newest failure not seen yet; the run its sentence names is no other failure', async () => {
    const store = useCaptureJobsStore();
    store.status = {
      failures: [failure(3, 0, 'default action'), failure(2, 0, 'default action'), failure(1, 0, 'default action')],
      failing: [],
      seen_id: 1,
    };
    // "failed 3 times in a row" already tells the two unseen ones: nothing "earlier" to add.
    expect(store.unseen).toEqual({ latest: expect.objectContaining({ id: 3 }), others: 0 });
    const seen: CaptureJobsStatus = { ...store.status, seen_id: 3 };
    vi.mocked(systemService.markJobsSeen).mockResolvedValue(seen);
    await store.markSeen();
    expect(systemService.markJobsSeen).toHaveBeenCalledWith(3);
    expect(store.unseen).toBeNull();
  });

  it('counts as others the failures of other actions, and those of the same action before a good run', () => {
    const store = useCaptureJobsStore();
    const run = (id: number, inARow: number, index: number): CaptureJobFailure => ({
      ...failure(id, index, 'default action'),
      in_a_row: inARow,
    });
    // Newest first: action 0 failed twice in a row (5, 4), action 1 failed once between (3), and
    // action 0 failed once (2) before a good run of it.
    store.status = { failures: [run(5, 2, 0), run(4, 1, 0), run(3, 1, 1), run(2, 1, 0)], failing: [], seen_id: 0 };
    expect(store.unseen).toEqual({ latest: expect.objectContaining({ id: 5 }), others: 2 });
    // Once the others are seen, the newest stands alone.
    store.status = { ...store.status, seen_id: 4 };
    expect(store.unseen).toEqual({ latest: expect.objectContaining({ id: 5 }), others: 0 });
  });

  it('marks the card whose trigger and name match a failing action, not another of the same place', () => {
    const store = useCaptureJobsStore();
    store.status = {
      failures: [],
      failing: [{ trigger: { kind: 'video', index: 0 }, name: 'default action', in_a_row: 2, last_at: '2026-11-28T13:48:45.000Z' }],
      seen_id: 0,
    };
    expect(store.failingOf(action('video', 0, 'default action'))?.in_a_row).toBe(2);
    // Another action moved to that place since (a deletion, a reorder): not marked.
    expect(store.failingOf(action('video', 0, 'Portrait'))).toBeNull();
    expect(store.failingOf(action('image', 0, 'default action'))).toBeNull();
  });
});
