// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BoothAction } from '../../server/contract/actions.contract.js';
import { useActionsStore } from '../../renderer/admin/stores/actions.store.js';
import { actionsService } from '../../renderer/admin/services/actions.service.js';

vi.mock('../../renderer/admin/services/actions.service.js', () => ({
  actionsService: { list: vi.fn(), reorder: vi.fn() },
}));

const action = (index: number, name: string): BoothAction => ({ index, general: { name } }) as unknown as BoothAction;
const names = (list: BoothAction[]) => list.map((a) => a.general.name);

describe('the order being arranged on the actions page', () => {
  beforeEach(async () => {
    setActivePinia(createPinia());
    vi.mocked(actionsService.list).mockResolvedValue({
      actions: [action(0, 'Photo'), action(1, 'Collage'), action(2, 'GIF')],
      version: 'v1',
    });
    await useActionsStore().load();
  });

  it('is clean after loading and dirty once the draft moves', () => {
    const store = useActionsStore();
    expect(store.orderDirty).toBe(false);
    store.draft = [store.draft[2]!, store.draft[0]!, store.draft[1]!];
    expect(store.orderDirty).toBe(true);
    expect(names(store.actions)).toEqual(['Photo', 'Collage', 'GIF']);
  });

  it('puts the stored order back on cancel', () => {
    const store = useActionsStore();
    store.draft = [...store.draft].reverse();
    store.cancelOrder();
    expect(names(store.draft)).toEqual(['Photo', 'Collage', 'GIF']);
    expect(store.orderDirty).toBe(false);
  });

  it('saves the draft as the stored indexes in their new order, with the version it was made from', async () => {
    const store = useActionsStore();
    store.draft = [store.draft[1]!, store.draft[2]!, store.draft[0]!];
    vi.mocked(actionsService.reorder).mockResolvedValue({
      actions: [action(0, 'Collage'), action(1, 'GIF'), action(2, 'Photo')],
      version: 'v2',
    });
    await store.saveOrder();
    expect(actionsService.reorder).toHaveBeenCalledWith([1, 2, 0], 'v1');
    expect(names(store.actions)).toEqual(['Collage', 'GIF', 'Photo']);
    expect(store.version).toBe('v2');
    expect(store.orderDirty).toBe(false);
    expect(store.busy).toBe(false);
  });

  it('keeps the draft and frees the page when saving fails', async () => {
    const store = useActionsStore();
    store.draft = [...store.draft].reverse();
    vi.mocked(actionsService.reorder).mockRejectedValue(new Error('conflict'));
    await expect(store.saveOrder()).rejects.toThrow('conflict');
    expect(names(store.draft)).toEqual(['GIF', 'Collage', 'Photo']);
    expect(store.orderDirty).toBe(true);
    expect(store.busy).toBe(false);
  });
});
