import { onBeforeUnmount, onMounted, type Ref } from 'vue';

const nextFrame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/**
 * Loads more while the sentinel element is near the visible part of the page. An observer only
 * speaks when visibility changes, so after each page the sentinel is checked again: a short
 * page that leaves it in view loads the next one too. `loadMore` says whether more remain.
 */
export function useInfiniteScroll(sentinel: Ref<HTMLElement | null>, loadMore: () => Promise<boolean>): void {
  let observer: IntersectionObserver | undefined;
  let visible = false;
  let pumping = false;

  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      while (visible && (await loadMore())) await nextFrame();
    } finally {
      pumping = false;
    }
  };

  onMounted(() => {
    observer = new IntersectionObserver(
      (entries) => {
        visible = entries.some((e) => e.isIntersecting);
        if (visible) void pump();
      },
      { rootMargin: '600px 0px' },
    );
    if (sentinel.value) observer.observe(sentinel.value);
  });
  onBeforeUnmount(() => observer?.disconnect());
}
