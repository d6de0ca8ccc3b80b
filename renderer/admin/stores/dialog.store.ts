import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  /** What will follow, one sentence a line (what guests will see, what stays). */
  points?: string[];
}

interface Pending extends ConfirmRequest {
  resolve: (ok: boolean) => void;
}

/** One confirmation at a time, answered by the dialog that App.vue hosts. */
export const useDialogStore = defineStore('dialog', () => {
  const pending = ref<Pending | null>(null);

  function confirm(request: ConfirmRequest): Promise<boolean> {
    pending.value?.resolve(false);
    return new Promise((resolve) => {
      pending.value = { ...request, resolve };
    });
  }

  function answer(ok: boolean): void {
    const current = pending.value;
    pending.value = null;
    current?.resolve(ok);
  }

  return { pending, confirm, answer };
});
