import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ActionKind, BoothAction, NotKeptField } from '../../../server/contract/actions.contract.js';
import { actionsService, type ActionChanges } from '../services/actions.service.js';

/**
 * The action list as stored, and the order the operator is arranging. A new order is only a
 * draft until `saveOrder`; `cancelOrder` puts the stored one back.
 */
export const useActionsStore = defineStore('actions', () => {
  const actions = ref<BoothAction[]>([]);
  const version = ref<string | undefined>(undefined);
  const draft = ref<BoothAction[]>([]);
  const loaded = ref(false);
  const busy = ref(false);

  const orderDirty = computed(() => draft.value.some((a, i) => a.index !== i) || draft.value.length !== actions.value.length);

  function accept(list: BoothAction[], nextVersion: string): void {
    actions.value = list;
    version.value = nextVersion;
    draft.value = [...list];
  }

  async function run<T>(work: () => Promise<T>): Promise<T> {
    busy.value = true;
    try {
      return await work();
    } finally {
      busy.value = false;
    }
  }

  async function load(): Promise<void> {
    const res = await actionsService.list();
    accept(res.actions, res.version);
    loaded.value = true;
  }

  /** Each write answers what the capture app did not keep, read back after it: the page names it instead of "saved". */
  const create = (kind: ActionKind, name: string) =>
    run(async () => {
      const res = await actionsService.create(kind, name);
      accept(res.actions, res.version);
      return { index: res.index, notKept: res.not_kept ?? [] };
    });

  const clone = (index: number) =>
    run(async (): Promise<NotKeptField[]> => {
      const res = await actionsService.clone(index, version.value);
      accept(res.actions, res.version);
      return res.not_kept ?? [];
    });

  const remove = (index: number) =>
    run(async (): Promise<NotKeptField[]> => {
      const res = await actionsService.remove(index, version.value);
      accept(res.actions, res.version);
      return res.not_kept ?? [];
    });

  const update = (index: number, changes: ActionChanges) =>
    run(async () => {
      const res = await actionsService.update(index, changes, version.value);
      accept(res.actions, res.version);
      // What the capture app did not keep, read back after the write: the page says so instead of "saved".
      return { action: res.action, notKept: res.not_kept ?? [], verified: res.verified ?? true };
    });

  const saveOrder = () =>
    run(async (): Promise<NotKeptField[]> => {
      const res = await actionsService.reorder(
        draft.value.map((a) => a.index),
        version.value,
      );
      accept(res.actions, res.version);
      return res.not_kept ?? [];
    });

  function cancelOrder(): void {
    draft.value = [...actions.value];
  }

  function replace(list: BoothAction[], nextVersion: string): void {
    accept(list, nextVersion);
  }

  return { actions, version, draft, loaded, busy, orderDirty, load, create, clone, remove, update, saveOrder, cancelOrder, replace };
});
