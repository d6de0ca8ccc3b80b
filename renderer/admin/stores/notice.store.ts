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
    // Long enough to be read: four seconds, and more for a longer sentence.
    if (kind === 'success') timer = setTimeout(() => (notice.value = null), Math.max(4000, 1500 + text.length * 60));
  }

  const dismiss = (): void => {
    notice.value = null;
  };

  return { notice, show, dismiss };
});
