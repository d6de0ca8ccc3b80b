import { defineStore } from 'pinia';
import { ref } from 'vue';

export type NoticeKind = 'success' | 'error';

/** Short messages at the bottom of the screen; errors stay until dismissed. */
export const useNoticeStore = defineStore('notice', () => {
  const notice = ref<{ kind: NoticeKind; text: string; id: number } | null>(null);
  let counter = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function show(kind: NoticeKind, text: string): void {
    clearTimeout(timer);
    notice.value = { kind, text, id: ++counter };
    if (kind === 'success') timer = setTimeout(() => (notice.value = null), 4000);
  }

  const dismiss = (): void => {
    notice.value = null;
  };

  return { notice, show, dismiss };
});
